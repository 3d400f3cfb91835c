#!/usr/bin/env bash
# Times `quarry lint` on a generated 2,000-file tree (1,500 Swift, 500
# Objective-C, ~120 lines each, with fetch requests, predicates of every
# literal kind and a few mistakes) against a model, with `cat` of the same
# files as the floor. Target (issue 24): under 2 s on this machine.
#
#   Scripts/lint-benchmark.sh                  release build of QuarryLint + Scripts/LintBench (the
#                                              subcommand's calls; builds in .build-release, minutes)
#   Scripts/lint-benchmark.sh QUARRY_BINARY    time `QUARRY_BINARY lint DIR --model M` instead
#   KEEP=1 …                                   keep the generated tree
set -euo pipefail
cd "$(dirname "$0")/.."
quarry=${1:-}
if [[ -z "$quarry" ]]; then
    swift build -c release --target QuarryLint --scratch-path .build-release > /dev/null
    R=.build-release/release
    swiftc -O Scripts/LintBench/main.swift -I $R/Modules $R/QuarryLint.build/*.o $R/QuarrySyntax.build/*.o \
        $R/QuarryModel.build/*.o $R/Yams.build/*.o $(find $R/CYaml.build -name '*.o') -o $R/lint-bench
fi
tree=$(mktemp -d /tmp/quarry-lint-bench.XXXXXX)
[[ -n "${KEEP:-}" ]] && echo "keeping $tree" || trap 'rm -rf "$tree"' EXIT

python3 - "$tree" <<'PY'
import os, sys
root = sys.argv[1]
model = """entities:
  Department:
    attributes: { name: string, budget: decimal }
    relationships:
      employees: { to: Employee, many: true, inverse: department }
  Employee:
    attributes: { name: string, age: integer16, salary: integer64, startDate: date }
    relationships:
      department: { to: Department, inverse: employees }
"""
open(os.path.join(root, "App.yaml"), "w").write(model)
swift = '''import CoreData

final class Store{n} {{
    let context: NSManagedObjectContext
    init(context: NSManagedObjectContext) {{ self.context = context }}

    func adults(named name: String) throws -> [Employee] {{
        let request = NSFetchRequest<Employee>(entityName: "Employee")
        request.predicate = NSPredicate(format: "name == %@ AND age >= %d", name, 18)
        return try context.fetch(request)
    }}

    func busy() -> NSPredicate {{
        // quarry-lint:entity Department
        NSPredicate(format: """
            employees.@count > 10
              AND ANY employees.salary > 100000
            """)
    }}

    func raw() -> NSPredicate {{ NSPredicate(format: #"name MATCHES "[A-Z]\\\\w+""#) }}
    func escaped() -> NSPredicate {{ NSPredicate(format: "name == \\"Bob\\" OR name == 'caf\\u{{e9}}'") }}
    func interpolated(_ x: Int) -> NSPredicate {{ NSPredicate(format: "age > \\(x)") }}
    func typo() -> NSFetchRequest<Employee> {{
        let r = NSFetchRequest<Employee>(entityName: "Employee")
        r.predicate = NSPredicate(format: "salry > %@", NSNumber(value: {n}))
        return r
    }}
{filler}
}}
'''
objc = '''#import <CoreData/CoreData.h>

@implementation Store{n}
- (NSArray *)fetch:(NSManagedObjectContext *)context {{
    NSFetchRequest *request = [NSFetchRequest fetchRequestWithEntityName:@"Employee"];
    request.predicate = [NSPredicate predicateWithFormat:@"name BEGINSWITH[cd] %@ "
                                                          @"AND department.name == %@", @"A", @"R&D"];
    return [context executeFetchRequest:request error:NULL];
}}
- (NSPredicate *)bad {{ return [NSPredicate predicateWithFormat:@"age == %@", 5]; }}
{filler}
@end
'''
filler_swift = "\n".join(f"    func helper{i}() -> Int {{ let values = [1, 2, 3].map {{ $0 * {i} }}; return values.reduce(0, +) }}" for i in range(90))
filler_objc = "\n".join(f"- (NSInteger)helper{i} {{ NSArray *a = @[@1, @2, @{i}]; return a.count * {i}; }}" for i in range(100))
for n in range(2000):
    d = os.path.join(root, "Sources", f"Module{n // 100}")
    os.makedirs(d, exist_ok=True)
    if n % 4 == 3:
        open(os.path.join(d, f"Store{n}.m"), "w").write(objc.format(n=n, filler=filler_objc))
    else:
        open(os.path.join(d, f"Store{n}.swift"), "w").write(swift.format(n=n, filler=filler_swift))
PY

files=$(find "$tree/Sources" -type f | wc -l)
bytes=$(find "$tree/Sources" -type f -print0 | xargs -0 cat | wc -c)
if [[ -n "$quarry" ]]; then lint=("$quarry" lint "$tree/Sources" --model "$tree/App.yaml")
else lint=("$R/lint-bench" "$tree/Sources" "$tree/App.yaml"); fi
echo "tree: $files files, $bytes bytes; linter: ${lint[0]}"
# Warm the page cache once, then time each three times and keep the best.
find "$tree/Sources" -type f -print0 | xargs -0 cat > /dev/null
best() {
    local b=999 s e
    for _ in 1 2 3; do
        s=$(date +%s.%N); "$@" > /dev/null 2>&1 || true; e=$(date +%s.%N)
        b=$(python3 -c "print(min($b, $e - $s))")
    done
    echo "$b"
}
cat_time=$(best sh -c "find '$tree/Sources' -type f -print0 | xargs -0 cat")
lint_time=$(best "${lint[@]}")
"${lint[@]}" > "$tree/out.txt" 2>&1 || true
echo "findings: $(grep -oE '\[QL[0-9]+\]$' "$tree/out.txt" | sort | uniq -c | tr -s ' ' | tr '\n' ' ')— $(tail -1 "$tree/out.txt")"
# CPU time too: on a shared machine the wall clock depends on the neighbours' load.
/usr/bin/time -o "$tree/time.txt" -f "one run: %e s real, %U s user, %S s sys" "${lint[@]}" > /dev/null 2>&1 || true
cat "$tree/time.txt"; echo "load: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
printf 'cat: %.3f s   quarry lint: %.3f s   (%.1fx the floor)\n' "$cat_time" "$lint_time" "$(python3 -c "print($lint_time / max($cat_time, 1e-6))")"
