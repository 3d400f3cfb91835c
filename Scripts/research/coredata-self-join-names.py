#!/usr/bin/env python3
"""Which side names a self-referential many-to-many's join table, and in what
order an entity's Z_FOK_ ordering columns go: candidate rules scored on the
real Core Data stores of the corpus.

Usage: Scripts/research/coredata-self-join-names.py [CORPUS]   (default ../shared/corpus)

Reads, at run time and read-only (sqlite3 immutable URIs), every store of
CORPUS/stores/stores.json, the model that wrote it (the paired XML model when
every stored entity hash equals the one computed from it, else the model
cached in the store, as CoreDataStoreCreationTests does) and its sqlite_master.
Nothing is copied or written.

What it checks
1. Every many-to-many of an entity with itself: both relationship names,
   their document order in the XML, ordered/optional/min/max/syncable,
   versionHashModifier, the relationships' version hashes, their order in the
   model Core Data cached in the store (Z_MODELCACHE, an archived
   NSMutableDictionary per entity), which of Z_<n><A> / Z_<n><B> the store has,
   and the names the table had before (index names a migration left behind).
   Then candidate rules, each scored on all cases.
2. Every table with two or more Z_FOK_ columns, their order, and candidate
   rules for it.
3. How well a model of NSDictionary enumeration order (CFStringHash of the
   key, bucket = hash mod the prime table size for the key count, linear
   probing, keys inserted attributes / to-ones / to-manys each by name)
   reproduces the key order of every dictionary archived in Z_MODELCACHE: the
   calibration behind the "hash order" candidates.

What it found (corpus of 2026-11: 51 stores with a self many-to-many, all
wire-ios UserClient.ignoredClients/ignoredByClients and
trustedClients/trustedByClients, 102 cases):
- No rule computed from the model explains all 102. The best score 97/102:
  "the name that sorts last" (the creation's current guess; UTF-8,
  upper-cased and case-insensitive alike), "last in XML document order",
  "the longer name", "last by relationship version hash", "the side whose
  inverse sorts first", "first in an NSDictionary of the relationships".
  All of them miss the same five: store1-28 (both tables), store2-3 (both),
  store2-101-0 (Z_24TRUSTEDBYCLIENTS). "First in an NSDictionary of the
  entity's stored properties" and "first in the Z_MODELCACHE dictionary"
  get exactly those five (and one or two more) right and the rest wrong.
- The choice is not a function of the two relationships: the four
  relationships are identical (names, inverses, flags, version hashes,
  relative document order, entity number 14 in both) in models 1.28/2.3 and
  2.4, yet 1.28/2.3 use IGNOREDBYCLIENTS + TRUSTEDBYCLIENTS, 2.4 ... 2.92
  IGNOREDCLIENTS + TRUSTEDCLIENTS, and 2.101 IGNOREDCLIENTS +
  TRUSTEDBYCLIENTS. 2.3 → 2.4 only added attributes (three to UserClient).
- Migrations rename the table to what the destination model chooses:
  store2-101-0 carries left-over index names Z_25TRUSTEDCLIENTS_… and
  Z_25TRUSTEDBYCLIENTS_… (one entity number, both names), so between 2.92
  and 2.101 a migration re-created the table under the other name; in the
  models folder the only UserClient change in that span with UserClient
  still number 25 is needsSessionMigration (2.96.0), which takes its stored
  properties from 32 to 33 — exactly where an NSDictionary grows from 41 to
  71 buckets; with 71 buckets "first in hash order" gives both of 2.101's
  names. So the side depends on the rest of the entity, as if Core Data
  named the table after whichever side it meets first in some hash-ordered
  collection. But no dictionary of the entity's properties explains the
  2.3 → 2.4 flip: both have 41 buckets, and trustedByClients (bucket 19)
  and trustedClients (bucket 35) are placed alike in both, so no enumeration
  of such a dictionary orders them differently. Whatever decides it (another
  collection, object addresses, the momc that compiled the model) is not
  recoverable from the model and the store: fitting table sizes per
  property count would fit three data points with free parameters.
- Z_FOK_ order: entity tables with two ordering columns are of two kinds.
  ZGENERICMESSAGEDATA (Z_FOK_ASSET, Z_FOK_MESSAGE; 52 stores) fits name
  order, and equally the order of the entities declaring the ordered
  to-manys (AssetClientMessage.dataSet, ClientMessage.dataSet). ZMESSAGE has
  Z_FOK_VISIBLEINCONVERSATION before Z_FOK_HIDDENINCONVERSATION in all 26
  stores that have both: against name order, and not the Z_MODELCACHE order
  (which varies between stores while the columns do not). That is one
  informative pair; the rules it admits (reverse name order, the ordered
  to-many's name — messages vs hiddenMessages — reversed, ...) cannot be
  told apart by the corpus. Join tables' ordering columns follow their join
  columns in every store (already the creation's rule).
- The NSDictionary model reproduces 723 of the 1033 property dictionaries
  archived in Z_MODELCACHE key for key; 267 of the other 310 are layouts the
  same buckets allow (colliding keys inserted in another order). CFStringHash
  and the bucket counts are right; the insertion order only roughly.
Hence CoreDataStoreLayout keeps its guess and its warning.
"""
import hashlib, importlib.util, json, os, plistlib, re, sqlite3, sys, zlib
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location('vh', os.path.join(HERE, 'coredata-version-hash.py'))
vh = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(vh)

# --- NSString hash and NSDictionary enumeration order ----------------------

M64 = (1 << 64) - 1


def cfstring_hash(s):
    """CFStringHash (CF-1153 __CFStrHashCharacters) of an ASCII/BMP string, 64-bit."""
    u = [ord(c) for c in s]
    n, r, i = len(u), len(u), 0
    while i < (n & ~3):
        r = (r * 67503105 + u[i] * 16974593 + u[i + 1] * 66049 + u[i + 2] * 257 + u[i + 3]) & M64
        i += 4
    while i < n:
        r = (r * 257 + u[i]) & M64
        i += 1
    return (r + (r << (n & 31))) & M64


SIZES = [0, 3, 7, 13, 23, 41, 71, 127, 191, 251, 383, 631, 1087, 1723, 2803]
CAPACITIES = [0, 3, 6, 11, 19, 32, 52, 85, 118, 155, 237, 390, 672, 1065, 1732]


def dictionary_order(keys, size=None):
    """Enumeration order of a dictionary holding `keys`, inserted in that order."""
    if size is None:
        size = SIZES[next(i for i, c in enumerate(CAPACITIES) if c >= len(keys))]
    table = [None] * size
    for k in keys:
        i = cfstring_hash(k) % size
        while table[i] is not None:
            i = (i + 1) % size
        table[i] = k
    return [k for k in table if k is not None]


def is_layout(order, size):
    """Whether `order` can be the enumeration of a linear-probing table of
    `size` buckets for some insertion order: every key sits at or after its
    home bucket with no empty bucket in between (keys at the front may have
    wrapped round from the end)."""
    home = {k: cfstring_hash(k) % size for k in order}
    for cut in range(len(order) + 1):
        wrapped, rest = order[:cut], order[cut:]
        slots, last = {}, -1
        for k in rest:
            last = max(last + 1, home[k])
            slots[k] = last
        if last >= size or (wrapped and slots and max(slots.values()) != size - 1):
            continue
        occupied = set(slots.values()) | set(range(len(wrapped)))
        if wrapped and min(slots.values(), default=size) < len(wrapped):
            continue
        if all(all(x in occupied for x in range(home[k], size)) for k in wrapped) and \
           all(all(x in occupied for x in range(home[k], slots[k])) for k in rest):
            return True
    return False


# --- Reading stores --------------------------------------------------------

def open_ro(path):
    return sqlite3.connect('file:' + path + '?immutable=1', uri=True)


def archived_property_orders(con):
    """Entity name → property names in the order of its archived NSProperties
    dictionary (Z_MODELCACHE), with each property's kind; None without a cache."""
    try:
        blob = con.execute('SELECT Z_CONTENT FROM Z_MODELCACHE').fetchone()[0]
    except sqlite3.OperationalError:
        return None
    p = plistlib.loads(zlib.decompress(blob, -15))
    objs = p['$objects']

    def R(u):
        if isinstance(u, plistlib.UID):
            v = objs[u.data]
            if isinstance(v, dict) and 'NS.string' in v:
                return v['NS.string']
            return None if v == '$null' else v
        return u

    def cls(o):
        return objs[o['$class'].data]['$classname']

    ents = R(R(p['$top']['root'])['NSEntities'])
    out = {}
    for e in [R(x) for x in (ents['NS.objects'] if 'NS.objects' in ents else R(ents['values'])['NS.objects'])]:
        props = R(e['NSProperties'])
        keys = [R(k) for k in props.get('NS.keys', [])]
        kinds = {}
        for k, q in zip(keys, [R(v) for v in props.get('NS.objects', [])]):
            q = R(q['NSUnderlyingProperty']) if 'NSUnderlyingProperty' in q else q
            c = cls(q)
            kinds[k] = 0 if 'Attribute' in c else (1 if q.get('NSMaxCount', 1) == 1 else 2) if 'Relationship' in c else 3
        out[R(e['NSEntityName'])] = (keys, kinds)
    return out


def xml_elements(path):
    """Entity → [(document index, element attributes)] of its properties; and
    the entities in document order."""
    root = ET.parse(path).getroot()
    ents, order = {}, []
    for e in root.findall('entity'):
        order.append(e.get('name'))
        ents[e.get('name')] = [(i, c.tag, dict(c.attrib)) for i, c in enumerate(c for c in e if c.tag in ('attribute', 'relationship', 'fetchedProperty'))]
    return ents, order


def entity_numbers(model):
    nums = {}

    def visit(names):
        for n in sorted(names, key=str.encode):
            nums[n] = len(nums) + 1
            visit([k for k, e in model.items() if e['parent'] == n])
    visit([k for k, e in model.items() if not e['parent']])
    return nums


def writing_model(con, corpus, s, hashes):
    if s['model']:
        m = vh.xml_model(os.path.join(corpus, 'models', s['model']))
        if vh.compare(m, hashes)[0] == len(hashes):
            return m, 'XML'
    try:
        m = vh.cached_model(con.execute('SELECT Z_CONTENT FROM Z_MODELCACHE').fetchone()[0])
        if vh.compare(m, hashes)[0] == len(hashes):
            return m, 'cached'
    except (sqlite3.OperationalError, TypeError):
        pass
    return None, None


def group(p):
    return 0 if p['kind'] == 'attribute' else (1 if p['max'] == 1 else 2) if p['kind'] == 'relationship' else 3


def flattened(props):
    """Attributes, to-ones, to-manys, each by name (insertion order for the dictionary model)."""
    return [p['name'] for p in sorted(props, key=lambda p: (group(p), p['name'].encode()))]


# --- 1. Self-referential many-to-manys -------------------------------------

def self_cases(corpus):
    stores = json.load(open(os.path.join(corpus, 'stores', 'stores.json')))
    cases, fok_tables, calibration = [], [], [0, 0, 0]
    for s in stores:
        path = os.path.join(corpus, 'stores', s['store'])
        con = open_ro(path)
        md = plistlib.loads(con.execute('SELECT Z_PLIST FROM Z_METADATA').fetchone()[0])
        hashes = md.get('NSStoreModelVersionHashes', {})
        master = con.execute("SELECT type, name, tbl_name FROM sqlite_master ORDER BY rowid").fetchall()
        tables = [n for t, n, _ in master if t == 'table']
        archived = archived_property_orders(con)
        # 3. calibration of the dictionary model on every archived dictionary
        for keys, kinds in (archived or {}).values():
            if keys:
                calibration[1] += 1
                if dictionary_order(sorted(keys, key=lambda k: (kinds[k], k.encode()))) == keys:
                    calibration[0] += 1
                else:
                    calibration[2] += is_layout(keys, SIZES[next(i for i, c in enumerate(CAPACITIES) if c >= len(keys))])
        # 2. tables with several ordering columns
        for t in tables:
            cols = [r[1] for r in con.execute('SELECT * FROM pragma_table_info(?)', (t,))]
            fok = [c for c in cols if c.startswith('Z_FOK_')]
            if len(fok) >= 2:
                fok_tables.append(dict(store=s['store'], table=t, columns=fok, all=cols, archived=archived))
        model, source = writing_model(con, corpus, s, hashes)
        if model is None:
            continue
        nums = entity_numbers(model)
        xml = xml_elements(os.path.join(corpus, 'models', s['model'])) if s['model'] and source == 'XML' else ({}, [])
        for en, e in model.items():
            done = set()
            for a in e['props']:
                if a['kind'] != 'relationship' or a['max'] == 1 or a['transient'] or a['dest'] != en or a['name'] in done:
                    continue
                b = next((q for q in e['props'] if q['kind'] == 'relationship' and q['name'] == a['inverse']), None)
                if b is None or b['max'] == 1:
                    continue
                done |= {a['name'], b['name']}
                n = nums[en]
                names = {r['name']: 'Z_%d%s' % (n, r['name'].upper()) for r in (a, b)}
                used = [r for r, t in names.items() if t in tables]
                if len(used) != 1:
                    continue
                table = names[used[0]]
                # Earlier names: indexes on this table named after another table.
                former = sorted({m.group(1) for t, name, tbl in master if t == 'index' and tbl == table
                                 for m in [re.match(r'(Z_\d+[A-Z0-9_]+?)_Z_\d+', name)] if m and m.group(1) != table})
                docpos = {x[2].get('name'): x[0] for x in xml[0].get(en, [])}
                attrs = {x[2].get('name'): x[2] for x in xml[0].get(en, [])}
                stored = [p for p in vh.all_properties(en, model) if not p['transient']]
                cases.append(dict(store=s['store'].split('/')[-1], fw=md.get('NSPersistenceFrameworkVersion'), source=source,
                                  entity=en, number=n, a=a, b=b, used=used[0], table=table, former=former,
                                  docpos=docpos, attrs=attrs, stored=stored, all=vh.all_properties(en, model),
                                  archived=(archived or {}).get(en, ([], {}))[0],
                                  master_order=[t for t in tables if t in names.values()]))
    return cases, fok_tables, calibration


def pick(order, a, b):
    return a if order.index(a) < order.index(b) else b


def other(c, name):
    return c['b']['name'] if name == c['a']['name'] else c['a']['name']


RULES = {
    'name order, UTF-8 (first)': lambda c: min(c['a']['name'], c['b']['name'], key=str.encode),
    'upper-cased name order (first)': lambda c: min(c['a']['name'], c['b']['name'], key=lambda x: x.upper()),
    'case-insensitive name order (first)': lambda c: min(c['a']['name'], c['b']['name'], key=lambda x: x.lower()),
    'shorter name': lambda c: min(c['a']['name'], c['b']['name'], key=len),
    'XML document order (first)': lambda c: min(c['a']['name'], c['b']['name'], key=lambda x: c['docpos'].get(x, 1e9)),
    'inverse name order (first: the one whose inverse sorts first)': lambda c: min(c['a']['name'], c['b']['name'], key=lambda x: other(c, x).encode()),
    'relationship version hash (first)': lambda c: min((c['a'], c['b']), key=vh.property_hash)['name'],
    'Z_MODELCACHE dictionary order (first)': lambda c: pick(c['archived'], c['a']['name'], c['b']['name']) if c['archived'] else None,
    'NSDictionary of stored properties (first)': lambda c: pick(dictionary_order(flattened(c['stored'])), c['a']['name'], c['b']['name']),
    'NSDictionary of all properties incl. transient (first)': lambda c: pick(dictionary_order(flattened(c['all'])), c['a']['name'], c['b']['name']),
    'NSDictionary of relationships (first)': lambda c: pick(dictionary_order(flattened([p for p in c['stored'] if p['kind'] == 'relationship'])), c['a']['name'], c['b']['name']),
    'NSDictionary of to-manys (first)': lambda c: pick(dictionary_order(flattened([p for p in c['stored'] if p['kind'] == 'relationship' and p['max'] != 1])), c['a']['name'], c['b']['name']),
    'CFStringHash (smaller)': lambda c: min(c['a']['name'], c['b']['name'], key=cfstring_hash),
}


def report_self(cases):
    print('== Self-referential many-to-manys: %d cases' % len(cases))
    seen = set()
    for c in cases:
        a, b = c['a'], c['b']
        key = (c['entity'], a['name'], b['name'], len(c['stored']), c['used'], tuple(c['former']))
        line = '%-32s fw %-4s %-6s %s(%d) %s|%s  stored properties %d  table %s' % (
            c['store'][:32], c['fw'], c['source'], c['entity'], c['number'], a['name'], b['name'], len(c['stored']), c['table'])
        if c['former']:
            line += '  former names (left-over indexes): ' + ', '.join(c['former'])
        if c['master_order']:
            line += '  sqlite_master order: ' + ' '.join(c['master_order'])
        print(line)
        if key in seen:
            continue
        seen.add(key)
        for r in (a, b):
            at = c['attrs'].get(r['name'], {})
            print('    %-18s doc#%-3s inverse %-18s ordered %-5s optional %-5s min %d max %d syncable %-4s modifier %-6s hash %s  cache#%s' % (
                r['name'], c['docpos'].get(r['name'], '-'), r['inverse'], r['ordered'], r['optional'], r['min'], r['max'],
                at.get('syncable', '-'), r['modifier'], vh.property_hash(r).hex()[:12],
                c['archived'].index(r['name']) if r['name'] in c['archived'] else '-'))
    print()
    print('== Candidate rules (the table is named after the side the rule picks; "first"/"last" both shown)')
    for name, rule in RULES.items():
        first = last = 0
        misses = []
        for c in cases:
            p = rule(c)
            if p is None:
                continue
            first += p == c['used']
            last += p != c['used']
            if p != c['used']:
                misses.append('%s:%s' % (c['store'].replace('Tests__Resources__', '').replace('.wiredatabase', ''), c['table']))
        print('  %-62s first %3d/%d   last %3d/%d' % (name, first, len(cases), last, len(cases)))
        short = misses if len(misses) <= len(cases) // 2 else None
        if short:
            print('      misses (first): ' + ', '.join(short))
    print()


# --- 2. Z_FOK_ order --------------------------------------------------------

def report_fok(fok_tables):
    print('== Tables with two or more Z_FOK_ ordering columns: %d' % len(fok_tables))
    kinds = {}
    for t in fok_tables:
        kind = (re.sub(r'\d+', 'n', t['table']), tuple(re.sub(r'\d+', 'n', c) for c in t['columns']))
        kinds.setdefault(kind, []).append(t)
    for (table, cols), ts in sorted(kinds.items()):
        names = [c[len('Z_FOK_'):] for c in cols]
        line = '  %-38s %-62s name order %-5s stores %2d' % (table, ' '.join(cols), names == sorted(names), len(ts))
        if table.startswith('Z_'):
            # A join table: are the ordering columns those of its two columns, in their order?
            follow = sum(t['columns'] == ['Z_FOK_' + c[2:] for c in t['all'][:2] if 'Z_FOK_' + c[2:] in t['columns']] for t in ts)
            line += '  follow the join columns in %d/%d' % (follow, len(ts))
        else:
            # An entity table: the order of the same names in the archived
            # (Z_MODELCACHE) dictionary of the entity that declares them.
            same = differ = 0
            for t in ts:
                for keys, kinds_ in (t['archived'] or {}).values():
                    up = [k.upper() for k in keys]
                    if all(n in up for n in names):
                        if sorted(names, key=up.index) == names:
                            same += 1
                        else:
                            differ += 1
            line += '  Z_MODELCACHE order agrees in %d, differs in %d' % (same, differ)
        print(line)
    print()


def main():
    corpus = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, '../../../shared/corpus')
    if not os.path.exists(os.path.join(corpus, 'stores', 'stores.json')):
        sys.exit('corpus not found at %s' % corpus)
    cases, fok_tables, calibration = self_cases(corpus)
    report_self(cases)
    report_fok(fok_tables)
    print('== Dictionary model: reproduces the key order of %d of %d dictionaries archived in Z_MODELCACHE;' % tuple(calibration[:2]))
    print('   of the other %d, %d are layouts the same buckets allow (colliding keys inserted in another order)' % (calibration[1] - calibration[0], calibration[2]))


if __name__ == '__main__':
    main()
