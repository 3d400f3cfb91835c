#!/usr/bin/env python3
"""Core Data's entity version hashes, recomputed from models and compared
with the hashes Core Data wrote into real stores (issue 21).

Usage: Scripts/research/coredata-version-hash.py [CORPUS]   (default ../shared/corpus)

Reads each store of CORPUS/stores/stores.json (immutable, read-only), its
Z_METADATA plist (NSStoreModelVersionHashes, NSStoreModelVersionHashesDigest)
and its cached model (Z_MODELCACHE: raw DEFLATE of a keyed archive), and the
XML model the corpus pairs with it; prints per store how many entity hashes
the layout below reproduces. Nothing is written anywhere.

Provenance: a search of public code for Core Data's method names surfaced
excerpts of decompiled Core Data, which suggested nesting a property's hash
inside the attribute's; nothing was taken from them beyond that idea, and
every part of the layout below stands only because the stored hashes
confirm it.

How the layout was found (on the stored hashes): start from
the simplest entity (CoreDataPlus's abstract Writer, one Integer 16
attribute), try candidate serialisations (orders, flag widths, endianness,
SHA-1/SHA-256/MD5, hex or raw nesting); the match was a nested SHA-256:
property hash from name + two flag bytes, attribute hash from that + the
type code as int32 LE, entity hash from name + abstract byte + the attribute
hashes. Then, each from the entities the current layout failed on: transient
properties are left out; relationships append destination, inverse,
maxCount, minCount (int32 LE); ordered ones 01 00; uniqueness constraints
append their names (joined by ".", sorted); sub-entities the parent's hash
and every property including inherited ones. The digest is
base64(SHA-512(name + hash for each entity sorted by name)). Derived
attributes (2 entities) are not reproduced; entity versionHashModifier is
in no store. The Swift implementation is
Sources/QuarryCoreData/CoreDataVersionHash.swift; this script is the
cross-check.
"""
import base64, hashlib, json, os, plistlib, sqlite3, struct, sys, zlib
import xml.etree.ElementTree as ET

S = lambda b: hashlib.sha256(b).digest()
TYPES = {'Integer 16': 100, 'Integer 32': 200, 'Integer 64': 300, 'Decimal': 400, 'Double': 500, 'Float': 600,
         'String': 700, 'Boolean': 800, 'Date': 900, 'Binary': 1000, 'UUID': 1100, 'URI': 1200,
         'Transformable': 1800, 'ObjectID': 2000, 'Undefined': 0, None: 0}


def property_base(p):
    b = p['name'].encode() + bytes([p['optional'], p['transient']])
    return S(b + (p['modifier'] or '').encode())


def property_hash(p):
    if p['kind'] == 'attribute':
        b = property_base(p) + struct.pack('<i', p['type'])
        b += b'\1' if p['external'] else b''
        b += b'\1' if p['history'] else b''
        return S(b)
    b = property_base(p) + p['dest'].encode() + (p['inverse'] or '').encode()
    b += struct.pack('<i', p['max']) + struct.pack('<i', p['min'])
    return S(b + (b'\1\0' if p['ordered'] else b''))


def entity_hash(name, model, memo):
    """None when not covered (a derived attribute, or a parent not covered)."""
    if name in memo:
        return memo[name]
    e = model[name]
    memo[name] = None
    b = name.encode() + bytes([e['abstract']])
    if e['parent']:
        ph = entity_hash(e['parent'], model, memo)
        if ph is None:
            return None
        b += ph
    props = [p for p in all_properties(name, model) if not p['transient']]
    if any(p.get('derived') for p in props):
        return None
    for p in sorted(props, key=lambda p: p['name']):
        b += property_hash(p)
    b += b''.join(sorted('.'.join(c).encode() for c in e['unique']))
    b += (e['modifier'] or '').encode()
    memo[name] = S(b)
    return memo[name]


def all_properties(name, model):
    chain = []
    while name:
        chain.append(model[name])
        name = model[name]['parent']
    return [p for e in reversed(chain) for p in e['props']]


def digest(hashes):
    return base64.b64encode(hashlib.sha512(b''.join(k.encode() + hashes[k] for k in sorted(hashes))).digest()).decode()


def xml_model(path):
    model = {}
    for ent in ET.parse(path).getroot().findall('entity'):
        props = []
        for a in ent.findall('attribute'):
            props.append(dict(kind='attribute', name=a.get('name'), type=TYPES[a.get('attributeType')],
                              optional=a.get('optional') == 'YES', transient=a.get('transient') == 'YES',
                              modifier=a.get('versionHashModifier'), derived=a.get('derived') == 'YES',
                              external=a.get('allowsExternalBinaryDataStorage') == 'YES',
                              history=a.get('preserveAfterDeletion') == 'YES'))
        for r in ent.findall('relationship'):
            props.append(dict(kind='relationship', name=r.get('name'), optional=r.get('optional') == 'YES',
                              transient=r.get('transient') == 'YES', modifier=r.get('versionHashModifier'),
                              dest=r.get('destinationEntity'), inverse=r.get('inverseName'),
                              min=int(r.get('minCount') or 0), max=int(r.get('maxCount') or 0),
                              ordered=r.get('ordered') == 'YES'))
        uc = ent.find('uniquenessConstraints')
        unique = [] if uc is None else [[c.get('value') for c in u.findall('constraint')] for u in uc.findall('uniquenessConstraint')]
        model[ent.get('name')] = dict(parent=ent.get('parentEntity'), abstract=ent.get('isAbstract') == 'YES',
                                      modifier=ent.get('versionHashModifier'), props=props, unique=unique)
    return model


def cached_model(blob):
    """The keyed archive of Z_MODELCACHE as the same dictionaries."""
    p = plistlib.loads(zlib.decompress(blob, -15))
    objs = p['$objects']

    def R(u):
        if isinstance(u, plistlib.UID):
            v = objs[u.data]
            if isinstance(v, dict) and 'NS.string' in v:
                return v['NS.string']   # NSString / NSMutableString objects
            return None if v == '$null' else v
        return u

    def cls(o):
        return objs[o['$class'].data]['$classname']

    def items(o):
        if 'NS.objects' in o:
            return [R(v) for v in o['NS.objects']]
        return [R(v) for v in R(o['values'])['NS.objects']]

    model = {}
    for e in items(R(R(p['$top']['root'])['NSEntities'])):
        parent = R(e['NSSuperentity'])
        parent_props = set()
        if parent:
            for q in items(R(parent['NSProperties'])):
                q = R(q['NSUnderlyingProperty']) if 'NSUnderlyingProperty' in q else q
                parent_props.add(R(q['NSPropertyName']))
        props = []
        for q in items(R(e['NSProperties'])):
            q = R(q['NSUnderlyingProperty']) if 'NSUnderlyingProperty' in q else q
            name, c = R(q['NSPropertyName']), cls(q)
            if name in parent_props:
                continue   # inherited: the parent declares it
            base = dict(name=name, optional=bool(q.get('NSIsOptional')), transient=bool(q.get('NSIsTransient')),
                        modifier=R(q.get('NSVersionHashModifier')))
            if 'Attribute' in c:
                flags = q.get('NSFlagsKey') or 0
                props.append(dict(base, kind='attribute', type=q['NSAttributeType'], derived='Derived' in c,
                                  external=bool(flags & 4), history=bool(flags & 16)))
            elif c == 'NSRelationshipDescription':
                props.append(dict(base, kind='relationship', dest=R(q['_NSDestinationEntityName']),
                                  inverse=R(q['_NSInverseRelationshipName']), min=q['NSMinCount'],
                                  max=q['NSMaxCount'], ordered=bool(q.get('NSIsOrdered'))))
            else:
                props.append(dict(base, kind='other', transient=True))   # fetched properties
        tuples = R(e.get('NSUniqueTuples'))
        unique = [[R(n) for n in R(t)['NS.objects']] for t in R(tuples)['NS.objects']] if tuples else []
        model[R(e['NSEntityName'])] = dict(parent=R(parent['NSEntityName']) if parent else None,
                                          abstract=bool(e.get('NSIsAbstract')), modifier=R(e['NSVersionHashModifier']),
                                          props=props, unique=unique)
    return model


def compare(model, hashes):
    memo, matched, uncovered = {}, 0, 0
    for name, want in hashes.items():
        got = entity_hash(name, model, memo) if name in model else None
        matched += got == want
        uncovered += got is None
    return matched, uncovered


def main():
    corpus = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '../../../shared/corpus')
    stores = json.load(open(os.path.join(corpus, 'stores/stores.json')))
    totals = {'cache': [0, 0, 0], 'xml': [0, 0, 0], 'digest': [0, 0]}
    for s in stores:
        path = os.path.join(corpus, 'stores', s['store'])
        con = sqlite3.connect('file:' + path + '?immutable=1', uri=True)
        md = plistlib.loads(con.execute('SELECT Z_PLIST FROM Z_METADATA').fetchone()[0])
        hashes = md.get('NSStoreModelVersionHashes', {})
        line = [s['store']]
        if 'NSStoreModelVersionHashesDigest' in md:
            ok = digest(hashes) == md['NSStoreModelVersionHashesDigest']
            totals['digest'][0] += ok
            totals['digest'][1] += 1
            line.append('digest ' + ('ok' if ok else 'DIFFERS'))
        try:
            blob = con.execute('SELECT Z_CONTENT FROM Z_MODELCACHE').fetchone()[0]
        except sqlite3.OperationalError:
            blob = None
        for kind, model in (('cache', cached_model(blob) if blob else None),
                            ('xml', xml_model(os.path.join(corpus, 'models', s['model'])) if s['model'] else None)):
            if model is None:
                continue
            matched, uncovered = compare(model, hashes)
            t = totals[kind]
            t[0] += matched
            t[1] += len(hashes)
            t[2] += uncovered
            line.append('%s %d/%d%s' % (kind, matched, len(hashes), ' (%d not covered)' % uncovered if uncovered else ''))
        print('  '.join(line))
    for kind in ('cache', 'xml'):
        print('%s: %d/%d entity hashes equal, %d not covered' % ((kind,) + tuple(totals[kind])))
    print('digest: %d/%d' % tuple(totals['digest']))


if __name__ == '__main__':
    main()
