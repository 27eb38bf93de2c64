// The flows applications run through the official Neo4j JavaScript driver (5.x or 6.x),
// printed as one line per observation so that two servers can be compared line by line
// (tests/driver_flows.rs runs this against the Neo4j oracle and against `grape serve bolt`).
//
// Usage: node flows.mjs DRIVER_DIR BOLT_URI USER PASSWORD   (DRIVER_DIR holds node_modules)
//
// Server-specific values (bookmarks, element ids, agents, timings) are printed by their shape
// only. Every flow cleans up after itself: its nodes carry the label `Flow`.

import { createRequire } from 'node:module'
import path from 'node:path'

const [driverDir, URI, USER, PASSWORD] = process.argv.slice(2)
const require = createRequire(path.join(path.resolve(driverDir), 'package.json'))
const neo4j = require('neo4j-driver')
const MAJOR = Number(require('neo4j-driver/package.json').version.split('.')[0])
const HOSTPORT = URI.split('://')[1]

const out = (flow, what, value) => console.log(`${flow}.${what}: ${value}`)

function show (v) {
  if (v === null || v === undefined) return String(v)
  if (neo4j.isInt(v)) return `Integer(${v.toString()})`
  if (neo4j.isNode(v)) return `(:${[...v.labels].sort().join(':')} ${show(v.properties)})`
  if (neo4j.isRelationship(v)) return `[:${v.type} ${show(v.properties)}]`
  if (neo4j.isPath(v)) return `<${v.segments.map(s => show(s.relationship)).join(', ')} len=${v.length}>`
  if (neo4j.isDate(v) || neo4j.isDateTime(v) || neo4j.isLocalDateTime(v) || neo4j.isTime(v) ||
      neo4j.isLocalTime(v) || neo4j.isDuration(v) || neo4j.isPoint(v)) {
    return `${v.constructor.name}(${v.toString()})`
  }
  if (Array.isArray(v)) return `[${v.map(show).join(', ')}]`
  if (v instanceof Uint8Array || ArrayBuffer.isView(v)) return `bytes(${Array.from(v).join(',')})`
  if (typeof v === 'object') return `{${Object.keys(v).map(k => `${k}: ${show(v[k])}`).join(', ')}}`
  if (typeof v === 'number') return `number(${Object.is(v, -0) ? '-0' : v})`
  return `${typeof v}(${JSON.stringify(v)})`
}

function error (e) {
  const parts = [e.name || e.constructor.name, e.code, String(e.message).split('\n')[0]]
  if (MAJOR >= 6) parts.push(e.gqlStatus)
  return parts.join(' | ').replace(/Node\(\d+\)/g, 'Node(<id>)')
}

async function count (d) {
  const { records } = await d.executeQuery('MATCH (n:Flow) RETURN count(n) AS c')
  return show(records[0].get('c'))
}

async function flowAutocommit (d) {
  const { records, summary, keys } = await d.executeQuery("RETURN 1 AS n, 'a' AS s, null AS z")
  out('autocommit', 'keys', JSON.stringify(keys))
  out('autocommit', 'record', show(records[0].toObject()))
  out('autocommit', 'query_type', summary.queryType)
  const s = d.session()
  try {
    const r = await s.run('UNWIND [3, 1, 2] AS x RETURN x ORDER BY x')
    out('autocommit', 'session.values', r.records.map(x => show(x.get('x'))).join(','))
    out('autocommit', 'session.consume.type', r.summary.queryType)
  } finally { await s.close() }
}

async function flowValues (d) {
  const values = {
    null: null,
    bool: true,
    int: neo4j.int('-4611686018427387904'),
    float: 1.5,
    nan_free_float: -0.0,
    string: 'grüße ✓',
    bytes: new Int8Array([0, -1, 16]),
    list: [neo4j.int(1), 'two', [3.5]],
    map: { a: neo4j.int(1), b: [true, null] },
    date: new neo4j.types.Date(2024, 2, 29),
    time: new neo4j.types.Time(12, 30, 15, 123456789, 7200),
    localtime: new neo4j.types.LocalTime(23, 59, 59, 1000),
    datetime_offset: new neo4j.types.DateTime(2020, 1, 2, 3, 4, 5, 6000, -18000),
    localdatetime: new neo4j.types.LocalDateTime(2020, 1, 2, 3, 4, 5, 600000),
    duration: new neo4j.types.Duration(14, 3, 7, 9),
    point2d: new neo4j.types.Point(7203, 1.0, 2.0),
    point3d: new neo4j.types.Point(9157, 1.0, 2.0, 3.0),
    wgs84: new neo4j.types.Point(4326, 12.5, 55.25)
  }
  for (const [name, v] of Object.entries(values)) {
    try {
      const { records } = await d.executeQuery('RETURN $v AS v, valueType($v) AS t', { v })
      out('values', name, `${show(records[0].get('v'))} :: ${records[0].get('t')}`)
    } catch (e) { out('values', name, error(e)) }
  }
  const { records } = await d.executeQuery(
    "RETURN datetime('2021-03-04T05:06:07.123[Europe/Paris]') AS zoned, " +
    "duration.between(date('2020-01-01'), date('2021-03-04')) AS between, " +
    'point({latitude: 1.5, longitude: 2.5, height: 3.5}) AS wgs3d, ' +
    '[1, 2.5] AS mixed, {z: 1, a: 2, m: {y: 1, b: 2}} AS keys')
  for (const k of ['zoned', 'between', 'wgs3d', 'mixed']) out('values', 'returned.' + k, show(records[0].get(k)))
  const m = records[0].get('keys')
  out('values', 'returned.key_order', JSON.stringify([...Object.keys(m), ...Object.keys(m.m)]))
}

async function flowGraph (d) {
  await d.executeQuery('MATCH (n:Flow) DETACH DELETE n')
  const { records, summary } = await d.executeQuery(
    "CREATE p = (a:Flow:A {x: 1, tags: ['t']})-[r:R {y: 2.5}]->(b:Flow:B) RETURN a, r, b, p")
  const [a, r, b, p] = ['a', 'r', 'b', 'p'].map(k => records[0].get(k))
  out('graph', 'node', show(a))
  out('graph', 'relationship', show(r))
  out('graph', 'path', show(p))
  out('graph', 'ends', `${r.startNodeElementId === a.elementId},${r.endNodeElementId === b.elementId}`)
  out('graph', 'element_id.is_str', typeof a.elementId === 'string' && a.elementId.length > 0)
  out('graph', 'counters', JSON.stringify(summary.counters.updates()))
  const res = await d.executeQuery('MATCH (a:Flow) WHERE elementId(a) = $id RETURN a.x AS x', { id: a.elementId })
  out('graph', 'by_element_id', res.records.map(x => show(x.get('x'))).join(','))
  await d.executeQuery('MATCH (n:Flow) DETACH DELETE n')
}

async function flowTransactions (d) {
  await d.executeQuery('MATCH (n:Flow) DETACH DELETE n')
  const s = d.session()
  try {
    let tx = s.beginTransaction()
    await tx.run("CREATE (:Flow {k: 'rolled back'})")
    out('tx', 'inside', show((await tx.run('MATCH (n:Flow) RETURN count(n) AS c')).records[0].get('c')))
    await tx.rollback()
    out('tx', 'after_rollback', await count(d))
    tx = s.beginTransaction({ metadata: { app: 'flows' }, timeout: 30000 })
    await tx.run("CREATE (:Flow {k: 'committed'})")
    const meta = (await tx.run('CALL tx.getMetaData() YIELD metadata RETURN metadata')).records[0].get(0)
    out('tx', 'metadata', show(meta))
    await tx.commit()
    out('tx', 'after_commit', await count(d))
    tx = s.beginTransaction()
    await tx.run("CREATE (:Flow {k: 'lost'})")
    try { await tx.run('RETURN 1/0') } catch (e) { out('tx', 'failure', error(e)) }
    try { await tx.run('RETURN 1') } catch (e) { out('tx', 'after_failure', e.name) }
    try { await tx.rollback() } catch (e) { out('tx', 'rollback_after_failure', e.name) }
    out('tx', 'kept', await count(d))
  } finally { await s.close() }
  const s2 = d.session()
  try {
    const w = await s2.executeWrite(async tx => {
      const r = await tx.run('CREATE (n:Flow {k: $k}) RETURN n.k AS k', { k: 'managed' })
      return [r.records.map(x => x.get('k')), r.summary.counters.updates().nodesCreated]
    })
    out('managed', 'write', JSON.stringify(w))
    const rd = await s2.executeRead(async tx =>
      (await tx.run('MATCH (n:Flow) RETURN n.k AS k ORDER BY k')).records.map(x => x.get('k')))
    out('managed', 'read', JSON.stringify(rd))
    let attempts = 0
    try {
      const r = await s2.executeWrite(async tx => {
        attempts++
        if (attempts === 1) {
          const e = new neo4j.Neo4jError('flows: try again', 'Neo.TransientError.General.DatabaseUnavailable')
          throw e
        }
        return (await tx.run("RETURN 'second try' AS r")).records[0].get('r')
      })
      out('managed', 'retried', `${r},${attempts}`)
    } catch (e) { out('managed', 'retried', error(e)) }
  } finally { await s2.close() }
  await d.executeQuery('MATCH (n:Flow) DETACH DELETE n')
}

async function flowBookmarks (d) {
  let bookmarks
  const a = d.session()
  try {
    await a.run("CREATE (:Flow {k: 'bm'})")
    bookmarks = a.lastBookmarks()
  } finally { await a.close() }
  out('bookmarks', 'after_write', bookmarks.length > 0 ? 'non-empty' : 'empty')
  const b = d.session({ bookmarks })
  try {
    out('bookmarks', 'chained_read', show((await b.run("MATCH (n:Flow {k: 'bm'}) RETURN count(n) AS c")).records[0].get('c')))
  } finally { await b.close() }
  const manager = neo4j.bookmarkManager()
  const s1 = d.session({ bookmarkManager: manager })
  try { await s1.run("CREATE (:Flow {k: 'bm2'})") } finally { await s1.close() }
  const s2 = d.session({ bookmarkManager: manager })
  try {
    out('bookmarks', 'manager_read', show((await s2.run('MATCH (n:Flow) RETURN count(n) AS c')).records[0].get('c')))
  } finally { await s2.close() }
  await d.executeQuery('MATCH (n:Flow) DETACH DELETE n')
}

async function flowRouting () {
  const r = neo4j.driver(`neo4j://${HOSTPORT}`, neo4j.auth.basic(USER, PASSWORD))
  try {
    await r.verifyConnectivity()
    let res = await r.executeQuery("RETURN 'routed' AS x", {}, { routing: neo4j.routing.READ })
    out('routing', 'read', res.records[0].get('x'))
    res = await r.executeQuery("CREATE (n:Flow) DELETE n RETURN 'w' AS x", {}, { routing: neo4j.routing.WRITE })
    const c = res.summary.counters.updates()
    out('routing', 'write', `${res.records[0].get('x')},${c.nodesCreated},${c.nodesDeleted}`)
    const s = r.session({ defaultAccessMode: neo4j.session.READ })
    try {
      out('routing', 'read_session', show((await s.run('RETURN 2 AS x')).records[0].get('x')))
    } finally { await s.close() }
  } finally { await r.close() }
}

async function flowStreaming (d) {
  const s = d.session({ fetchSize: 50 })
  try {
    let n = 0; let total = 0; let last = null
    const result = s.run("UNWIND range(1, 5000) AS i RETURN i, 'row ' + toString(i) AS label")
    for await (const rec of result) {
      n++; total += rec.get('i').toNumber(); last = rec.get('label')
    }
    out('streaming', 'rows', `${n},${total},${last}`)
    const first = []
    const r2 = s.run('UNWIND range(1, 1000) AS i RETURN i')
    for await (const rec of r2) {
      first.push(rec.get('i').toNumber())
      if (first.length === 3) break
    }
    const summary = await r2.summary()
    out('streaming', 'partial_then_consume', `${first.join(',')},${summary.queryType}`)
  } finally { await s.close() }
}

async function flowErrors (d) {
  await d.executeQuery('DROP CONSTRAINT flow_key IF EXISTS')
  await d.executeQuery('MATCH (n:Flow) DETACH DELETE n')
  await d.executeQuery('CREATE CONSTRAINT flow_key FOR (n:Flow) REQUIRE n.k IS UNIQUE')
  await d.executeQuery('CREATE (:Flow {k: 1})')
  const cases = [
    ['syntax', 'SELEC 1'],
    ['unknown_function', 'RETURN nosuch.fn(1)'],
    ['unknown_procedure', 'CALL nosuch.proc()'],
    ['missing_parameter', 'RETURN $nope'],
    ['division_by_zero', 'RETURN 1/0'],
    ['constraint', 'CREATE (:Flow {k: 1})'],
    ['undefined_variable', 'RETURN x'],
    ['delete_connected', 'CREATE (a:Flow)-[:R]->(:Flow) WITH a DELETE a'],
    ['property_type', 'CREATE (:Flow {m: {a: 1}})'],
    ['to_integer', 'RETURN toInteger([1])']
  ]
  for (const [name, q] of cases) {
    try { await d.executeQuery(q); out('errors', name, 'no error') } catch (e) { out('errors', name, error(e)) }
  }
  await d.executeQuery('MATCH (n:Flow) DETACH DELETE n')
  await d.executeQuery('DROP CONSTRAINT flow_key IF EXISTS')
  const bad = neo4j.driver(URI, neo4j.auth.basic(USER, PASSWORD + '-wrong'))
  try { await bad.verifyConnectivity(); out('errors', 'auth', 'no error') } catch (e) { out('errors', 'auth', error(e)) } finally { await bad.close() }
  const s = d.session()
  try {
    await s.run('CALL apoc.util.sleep(3000)', {}, { timeout: 500 })
    out('errors', 'timeout', 'no error')
  } catch (e) { out('errors', 'timeout', error(e)) } finally { await s.close() }
}

function ops (plan) {
  if (!plan) return 'null'
  const kids = plan.children || []
  return `[${[plan.operatorType.split('@')[0], ...kids.map(ops)].join(', ')}]`
}

async function flowSummary (d) {
  let { summary } = await d.executeQuery('MATCH (n:NoSuchFlowLabel) RETURN n')
  out('summary', 'notifications', JSON.stringify(summary.notifications.map(n => [n.code, n.severity, n.title]).sort()))
  if (MAJOR >= 6) {
    out('summary', 'gql_status', JSON.stringify(summary.gqlStatusObjects.map(s => [s.gqlStatus, s.statusDescription])))
  }
  ;({ summary } = await d.executeQuery('CREATE (a:Flow {p: 1, q: 2})-[:R]->(:Flow) SET a:Extra REMOVE a.q'))
  let c = summary.counters.updates()
  out('summary', 'counters', `${c.nodesCreated},${c.relationshipsCreated},${c.propertiesSet},${c.labelsAdded},${c.labelsRemoved},${summary.counters.containsUpdates()}`)
  out('summary', 'query_type', summary.queryType)
  ;({ summary } = await d.executeQuery('MATCH (n:Flow) DETACH DELETE n'))
  c = summary.counters.updates()
  out('summary', 'delete', `${c.nodesDeleted},${c.relationshipsDeleted},${summary.queryType}`)
  ;({ summary } = await d.executeQuery('CREATE INDEX flow_idx IF NOT EXISTS FOR (n:Flow) ON (n.p)'))
  out('summary', 'schema', `${summary.counters.updates().indexesAdded},${summary.queryType}`)
  ;({ summary } = await d.executeQuery('DROP INDEX flow_idx'))
  out('summary', 'schema_drop', `${summary.counters.updates().indexesRemoved},${summary.counters.containsSystemUpdates()}`)
  ;({ summary } = await d.executeQuery('EXPLAIN MATCH (n:Flow) RETURN n.p AS p'))
  out('summary', 'explain', ops(summary.plan))
  ;({ summary } = await d.executeQuery('PROFILE UNWIND range(1, 3) AS i RETURN i'))
  out('summary', 'profile', `${ops(summary.profile)},${summary.profile.rows}`)
}

async function main () {
  const d = neo4j.driver(URI, neo4j.auth.basic(USER, PASSWORD), { disableLosslessIntegers: false })
  try {
    await d.verifyConnectivity()
    for (const f of [flowAutocommit, flowValues, flowGraph, flowTransactions, flowBookmarks, flowStreaming, flowErrors, flowSummary]) {
      try { await f(d) } catch (e) { out(f.name, 'broken', error(e)) }
    }
  } finally { await d.close() }
  try { await flowRouting() } catch (e) { out('routing', 'broken', error(e)) }
}

main().catch(e => { console.error(e); process.exit(1) })
