// `quarry --help`: the shell's options with examples (the subcommands keep
// ArgumentParser's help: `quarry help fixtures`).

enum ShellHelp {
    static let text = """
    USAGE: quarry [options] [FILE | -c STATEMENT | -f FILE | -]...
           quarry STORE.sqlite [options]          (a file with SQLite's header is the store)
           quarry parse|eval|fixtures|export|migrate ...  (quarry help SUBCOMMAND)

    With no FILE and no -c: the REPL on a terminal, else statements from stdin.
    Statements end with ';' (also in the REPL); -c and the last statement of a
    file may omit it. Before anything runs, every statement is parsed and
    checked against the model: a typo anywhere fails the run (exit 65).

    STORE
      --store PATH            a SQLite store file (created with --model; :memory: for a new empty one)
      --postgres URL          a PostgreSQL store: postgres://user[:password]@host[:port]/db[?schema=name]
      --model PATH            the model (YAML, JSON or .xcdatamodeld)
      --migrate               migrate a store made with an earlier version of the model
                              (without it such a store is refused; see quarry migrate)
      --writable              open a Core Data store for writing (read-only without it);
                              writes keep Z_PK/Z_MAX, Z_ENT, Z_OPT, join and order columns
      --engine sql|memory     where predicates run (default sql)

    INPUT
      -c STATEMENT            run a statement or dot-command (repeatable; in order with files)
      -f FILE                 run a query file (as a FILE argument does)
      -                       read statements from stdin
      --arg VALUE             a value for %@, %d, %K ... in statements, in order (JSON, or a plain string)

    OUTPUT
      --mode MODE             table (default), json, ndjson, csv, markdown, line
      --json --ndjson --csv --markdown --line --table    the same as --mode MODE
      -o FILE                 write results to FILE
      --echo                  print each statement before its result
      --no-pager              never page (on a terminal, results taller than the
                              screen go through $PAGER, default less -FRX;
                              PAGER= turns it off too)
      -q, --quiet             no greeting in the REPL
      --error-format human|json

    ERRORS AND TRANSACTIONS
      --bail                  stop at the first error (the default for -c and files;
                              in the REPL and for stdin errors do not stop the rest)
      --keep-going            run everything even after an error (no checking first)
      -1, --single-transaction
                              run everything in one transaction: committed if all
                              succeeded, rolled back otherwise
      Exit status: 0 ok, 1 a statement failed, 64 bad usage, 65 a parse or bind
      error, 66 a file could not be opened, 130 Ctrl-C.

      --version               print the version
      -h, --help              print this help

    EXAMPLES
      quarry -c 'FETCH Department SORT BY name'          the embedded example company
      quarry Examples/Queries/tour.qry
      quarry --store tasks.sqlite --model Examples/Models/Tasks.yaml -c "INSERT Task {task: 'Write', done: NO}"
      quarry tasks.sqlite -c 'COUNT Task WHERE done == NO' --csv
      quarry --store tasks.sqlite -1 cleanup.qry        all or nothing
      quarry -c 'SET $min = 50000' -c 'COUNT Employee WHERE salary > $min'
      echo 'COUNT Employee;' | quarry -
      PAGER='less -S' quarry --store big.sqlite      wide results scroll sideways
      NO_COLOR=1 quarry                               no red errors

    """
}
