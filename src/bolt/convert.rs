//! grape values to PackStream structures and back, per Bolt version.

use super::packstream::Ps;
use crate::temporal::{Duration, Temporal};
use crate::value::{Entities, NodeId, RelId, Value};
use chrono::{DateTime, NaiveDateTime, NaiveTime, Offset, TimeZone, Timelike};
use std::collections::BTreeMap;
use std::sync::Arc;

/// How values are written for a negotiated protocol version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dialect {
    /// Bolt 5: nodes and relationships carry element ids.
    pub element_ids: bool,
    /// Zoned date-times as UTC instants (Bolt 5, or 4.4 with the `utc` patch).
    pub utc_datetimes: bool,
}

pub const TAG_NODE: u8 = 0x4E;
pub const TAG_REL: u8 = 0x52;
pub const TAG_UNBOUND_REL: u8 = 0x72;
pub const TAG_PATH: u8 = 0x50;
pub const TAG_DATE: u8 = 0x44;
pub const TAG_TIME: u8 = 0x54;
pub const TAG_LOCAL_TIME: u8 = 0x74;
pub const TAG_LOCAL_DATETIME: u8 = 0x64;
pub const TAG_DATETIME: u8 = 0x49;
pub const TAG_DATETIME_ZONE_ID: u8 = 0x69;
pub const TAG_LEGACY_DATETIME: u8 = 0x46;
pub const TAG_LEGACY_DATETIME_ZONE_ID: u8 = 0x66;
pub const TAG_DURATION: u8 = 0x45;
pub const TAG_POINT_2D: u8 = 0x58;
pub const TAG_POINT_3D: u8 = 0x59;

fn epoch() -> NaiveDateTime {
    DateTime::from_timestamp(0, 0)
        .map(|d| d.naive_utc())
        .unwrap_or_default()
}

fn nanos_of_day(t: &NaiveTime) -> i64 {
    t.num_seconds_from_midnight() as i64 * 1_000_000_000 + t.nanosecond() as i64
}

fn props(m: BTreeMap<Arc<str>, Value>, e: &dyn Entities, d: Dialect) -> Ps {
    Ps::Map(
        java_hash_order(m.iter())
            .into_iter()
            .map(|(k, v)| (k.to_string(), to_ps(v, e, d)))
            .collect(),
    )
}

pub(crate) use crate::value::java_hash_order;

fn node(n: NodeId, e: &dyn Entities, d: Dialect) -> Ps {
    let mut f = vec![
        Ps::Int(n.0 as i64),
        Ps::List(
            e.node_labels(n)
                .iter()
                .map(|l| Ps::String(l.to_string()))
                .collect(),
        ),
        props(e.node_props(n), e, d),
    ];
    if d.element_ids {
        f.push(Ps::String(e.element_id(true, n.0)));
    }
    Ps::Struct(TAG_NODE, f)
}

fn rel(r: RelId, e: &dyn Entities, d: Dialect) -> Ps {
    let (s, t) = e.rel_endpoints(r).unwrap_or((NodeId(0), NodeId(0)));
    let mut f = vec![
        Ps::Int(r.0 as i64),
        Ps::Int(s.0 as i64),
        Ps::Int(t.0 as i64),
        Ps::String(e.rel_type(r).map(|t| t.to_string()).unwrap_or_default()),
        props(e.rel_props(r), e, d),
    ];
    if d.element_ids {
        f.push(Ps::String(e.element_id(false, r.0)));
        f.push(Ps::String(e.element_id(true, s.0)));
        f.push(Ps::String(e.element_id(true, t.0)));
    }
    Ps::Struct(TAG_REL, f)
}

/// A path: its distinct nodes, its distinct relationships (unbound), and the walk as
/// alternating (relationship index, 1-based and negative when walked against its direction;
/// node index) pairs.
fn path(p: &crate::value::Path, e: &dyn Entities, d: Dialect) -> Ps {
    let mut nodes: Vec<NodeId> = Vec::new();
    let mut rels: Vec<RelId> = Vec::new();
    let index_of = |v: &mut Vec<NodeId>, n: NodeId| match v.iter().position(|x| *x == n) {
        Some(i) => i,
        None => {
            v.push(n);
            v.len() - 1
        }
    };
    if let Some(first) = p.nodes.first() {
        index_of(&mut nodes, *first);
    }
    let mut seq = Vec::new();
    for (k, r) in p.rels.iter().enumerate() {
        let ri = match rels.iter().position(|x| x == r) {
            Some(i) => i,
            None => {
                rels.push(*r);
                rels.len() - 1
            }
        } as i64
            + 1;
        let from = p.nodes[k];
        let forward = e.rel_endpoints(*r).is_none_or(|(s, _)| s == from);
        seq.push(Ps::Int(if forward { ri } else { -ri }));
        let ni = index_of(&mut nodes, p.nodes[k + 1]);
        seq.push(Ps::Int(ni as i64));
    }
    let unbound = |r: RelId| {
        let mut f = vec![
            Ps::Int(r.0 as i64),
            Ps::String(e.rel_type(r).map(|t| t.to_string()).unwrap_or_default()),
            props(e.rel_props(r), e, d),
        ];
        if d.element_ids {
            f.push(Ps::String(e.element_id(false, r.0)));
        }
        Ps::Struct(TAG_UNBOUND_REL, f)
    };
    Ps::Struct(
        TAG_PATH,
        vec![
            Ps::List(nodes.into_iter().map(|n| node(n, e, d)).collect()),
            Ps::List(rels.into_iter().map(unbound).collect()),
            Ps::List(seq),
        ],
    )
}

fn temporal(t: &Temporal, d: Dialect) -> Ps {
    match t {
        Temporal::Date(x) => Ps::Struct(TAG_DATE, vec![Ps::Int((*x - epoch().date()).num_days())]),
        Temporal::LocalTime(x) => Ps::Struct(TAG_LOCAL_TIME, vec![Ps::Int(nanos_of_day(x))]),
        Temporal::Time(x, off) => Ps::Struct(
            TAG_TIME,
            vec![Ps::Int(nanos_of_day(x)), Ps::Int(*off as i64)],
        ),
        Temporal::LocalDateTime(x) => {
            let u = x.and_utc();
            Ps::Struct(
                TAG_LOCAL_DATETIME,
                vec![
                    Ps::Int(u.timestamp()),
                    Ps::Int(u.timestamp_subsec_nanos() as i64),
                ],
            )
        }
        Temporal::DateTime(local, off, zone) => {
            let u = local.and_utc();
            let local_secs = u.timestamp();
            let secs = if d.utc_datetimes {
                local_secs - *off as i64
            } else {
                local_secs
            };
            let nanos = Ps::Int(u.timestamp_subsec_nanos() as i64);
            match (zone, d.utc_datetimes) {
                (Some(z), true) => Ps::Struct(
                    TAG_DATETIME_ZONE_ID,
                    vec![Ps::Int(secs), nanos, Ps::String(z.to_string())],
                ),
                (Some(z), false) => Ps::Struct(
                    TAG_LEGACY_DATETIME_ZONE_ID,
                    vec![Ps::Int(secs), nanos, Ps::String(z.to_string())],
                ),
                (None, true) => Ps::Struct(
                    TAG_DATETIME,
                    vec![Ps::Int(secs), nanos, Ps::Int(*off as i64)],
                ),
                (None, false) => Ps::Struct(
                    TAG_LEGACY_DATETIME,
                    vec![Ps::Int(secs), nanos, Ps::Int(*off as i64)],
                ),
            }
        }
        Temporal::Duration(x) => Ps::Struct(
            TAG_DURATION,
            vec![
                Ps::Int(x.months),
                Ps::Int(x.days),
                Ps::Int(x.seconds),
                Ps::Int(x.nanos),
            ],
        ),
    }
}

/// A result value in PackStream; nodes and relationships are described by `e` (the result's
/// snapshot).
pub fn to_ps(v: &Value, e: &dyn Entities, d: Dialect) -> Ps {
    match v {
        Value::Null => Ps::Null,
        Value::Bool(b) => Ps::Bool(*b),
        Value::Int(i) => Ps::Int(*i),
        Value::Float(f) => Ps::Float(*f),
        Value::String(s) => Ps::String(s.to_string()),
        Value::Bytes(b) => Ps::Bytes(b.to_vec()),
        Value::List(items) => Ps::List(items.iter().map(|x| to_ps(x, e, d)).collect()),
        Value::Map(m) => Ps::Map(
            java_hash_order(m.iter())
                .into_iter()
                .map(|(k, x)| (k.to_string(), to_ps(x, e, d)))
                .collect(),
        ),
        Value::Node(n) => node(*n, e, d),
        Value::Relationship(r) => rel(*r, e, d),
        Value::Path(p) => path(p, e, d),
        Value::Temporal(t) => temporal(t, d),
        Value::Point(p) => {
            let mut f = vec![Ps::Int(p.crs.srid()), Ps::Float(p.x), Ps::Float(p.y)];
            match p.z {
                Some(z) => {
                    f.push(Ps::Float(z));
                    Ps::Struct(TAG_POINT_3D, f)
                }
                None => Ps::Struct(TAG_POINT_2D, f),
            }
        }
    }
}

/// A Point2D (`srid, x, y`) or Point3D (`srid, x, y, z`) structure.
fn point_of(tag: u8, f: &[Ps]) -> Result<crate::spatial::Point, String> {
    let what = if tag == TAG_POINT_2D {
        "Point2D"
    } else {
        "Point3D"
    };
    let dims = if tag == TAG_POINT_2D { 2 } else { 3 };
    if f.len() != dims + 1 {
        return Err(format!(
            "{what}: expected {} fields, got {}",
            dims + 1,
            f.len()
        ));
    }
    let srid = int_field(f, 0, what)?;
    let crs = crate::spatial::Crs::by_srid(srid)
        .ok_or_else(|| format!("{what}: unknown coordinate reference system code {srid}"))?;
    let coords = f[1..]
        .iter()
        .enumerate()
        .map(|(i, x)| match x {
            Ps::Float(x) => Ok(*x),
            Ps::Int(x) => Ok(*x as f64),
            _ => Err(format!("{what}: field {} must be a float", i + 1)),
        })
        .collect::<Result<Vec<f64>, String>>()?;
    crate::spatial::Point::from_coordinates(crs, &coords).map_err(|e| format!("{what}: {e}"))
}

fn int_field(f: &[Ps], i: usize, what: &str) -> Result<i64, String> {
    f.get(i)
        .and_then(Ps::as_int)
        .ok_or_else(|| format!("{what}: field {i} must be an integer"))
}

fn time_of(nanos: i64, what: &str) -> Result<NaiveTime, String> {
    let (s, n) = (
        nanos.div_euclid(1_000_000_000),
        nanos.rem_euclid(1_000_000_000),
    );
    u32::try_from(s)
        .ok()
        .and_then(|s| NaiveTime::from_num_seconds_from_midnight_opt(s, n as u32))
        .ok_or_else(|| format!("{what}: {nanos} ns is not a time of day"))
}

fn datetime_of(secs: i64, nanos: i64, what: &str) -> Result<NaiveDateTime, String> {
    u32::try_from(nanos)
        .ok()
        .and_then(|n| DateTime::from_timestamp(secs, n))
        .map(|d| d.naive_utc())
        .ok_or_else(|| format!("{what}: {secs} s, {nanos} ns is out of range"))
}

/// A parameter value from PackStream (`Err` names what cannot be a grape value).
pub fn from_ps(p: &Ps) -> Result<Value, String> {
    Ok(match p {
        Ps::Null => Value::Null,
        Ps::Bool(b) => Value::Bool(*b),
        Ps::Int(i) => Value::Int(*i),
        Ps::Float(f) => Value::Float(*f),
        Ps::String(s) => Value::from(s.as_str()),
        Ps::Bytes(b) => Value::Bytes(b.as_slice().into()),
        Ps::List(items) => Value::List(items.iter().map(from_ps).collect::<Result<_, _>>()?),
        Ps::Map(m) => Value::Map(
            m.iter()
                .map(|(k, v)| Ok((Arc::from(k.as_str()), from_ps(v)?)))
                .collect::<Result<_, String>>()?,
        ),
        Ps::Struct(tag, f) => {
            let t = match *tag {
                TAG_DATE => {
                    let days = int_field(f, 0, "Date")?;
                    let date = epoch()
                        .date()
                        .checked_add_signed(chrono::Duration::days(days))
                        .ok_or("Date out of range")?;
                    Temporal::Date(date)
                }
                TAG_LOCAL_TIME => {
                    Temporal::LocalTime(time_of(int_field(f, 0, "LocalTime")?, "LocalTime")?)
                }
                TAG_TIME => {
                    let off = int_field(f, 1, "Time")?;
                    Temporal::Time(
                        time_of(int_field(f, 0, "Time")?, "Time")?,
                        i32::try_from(off).map_err(|_| "Time offset out of range")?,
                    )
                }
                TAG_LOCAL_DATETIME => Temporal::LocalDateTime(datetime_of(
                    int_field(f, 0, "LocalDateTime")?,
                    int_field(f, 1, "LocalDateTime")?,
                    "LocalDateTime",
                )?),
                TAG_DATETIME | TAG_LEGACY_DATETIME => {
                    let off = i32::try_from(int_field(f, 2, "DateTime")?)
                        .map_err(|_| "DateTime offset out of range")?;
                    let secs = int_field(f, 0, "DateTime")?;
                    let local_secs = if *tag == TAG_DATETIME {
                        secs + off as i64
                    } else {
                        secs
                    };
                    Temporal::DateTime(
                        datetime_of(local_secs, int_field(f, 1, "DateTime")?, "DateTime")?,
                        off,
                        None,
                    )
                }
                TAG_DATETIME_ZONE_ID | TAG_LEGACY_DATETIME_ZONE_ID => {
                    let zone = f
                        .get(2)
                        .and_then(Ps::as_str)
                        .ok_or("DateTimeZoneId: field 2 must be a zone id")?;
                    let tz: chrono_tz::Tz = zone
                        .parse()
                        .map_err(|_| format!("unknown time zone {zone:?}"))?;
                    let secs = int_field(f, 0, "DateTimeZoneId")?;
                    let nanos = int_field(f, 1, "DateTimeZoneId")?;
                    let (local, off) = if *tag == TAG_DATETIME_ZONE_ID {
                        let utc = datetime_of(secs, nanos, "DateTimeZoneId")?;
                        let off = tz.offset_from_utc_datetime(&utc).fix().local_minus_utc();
                        (utc + chrono::Duration::seconds(off as i64), off)
                    } else {
                        let local = datetime_of(secs, nanos, "DateTimeZoneId")?;
                        let off = tz
                            .offset_from_local_datetime(&local)
                            .earliest()
                            .map(|o| o.fix().local_minus_utc())
                            .ok_or("DateTimeZoneId: the local time does not exist in its zone")?;
                        (local, off)
                    };
                    Temporal::DateTime(local, off, Some(Arc::from(zone)))
                }
                TAG_DURATION => Temporal::Duration(Duration {
                    months: int_field(f, 0, "Duration")?,
                    days: int_field(f, 1, "Duration")?,
                    seconds: int_field(f, 2, "Duration")?,
                    nanos: int_field(f, 3, "Duration")?,
                }),
                TAG_POINT_2D | TAG_POINT_3D => return point_of(*tag, f).map(Value::from),
                TAG_NODE | TAG_REL | TAG_UNBOUND_REL | TAG_PATH => {
                    return Err("nodes, relationships and paths cannot be parameters".into())
                }
                other => return Err(format!("unknown structure tag 0x{other:02X}")),
            };
            Value::Temporal(Arc::new(t))
        }
    })
}

/// Decodes result records from another database: nodes, relationships and paths become handles
/// whose labels, types, endpoints and properties are collected for a
/// [`Table`](crate::engine::Table) ([`ResultDecoder::into_table`]). A node or relationship keeps
/// its database id as its handle when the id is below 2³¹ (so the same entity has the same
/// handle in every result); other ids (virtual entities have negative ones) get handles from
/// 2³¹ up.
#[derive(Default)]
pub struct ResultDecoder {
    nodes: std::collections::HashMap<NodeId, crate::engine::NodeSnapshot>,
    rels: std::collections::HashMap<RelId, crate::engine::RelSnapshot>,
    node_ids: std::collections::HashMap<i64, u32>,
    rel_ids: std::collections::HashMap<i64, u32>,
}

use crate::value::FOREIGN_ID_BASE;

fn local_id(id: i64, map: &mut std::collections::HashMap<i64, u32>) -> u32 {
    if (0..FOREIGN_ID_BASE as i64).contains(&id) {
        return id as u32;
    }
    let next = FOREIGN_ID_BASE + map.len() as u32;
    *map.entry(id).or_insert(next)
}

impl ResultDecoder {
    /// One value of a record.
    pub fn value(&mut self, p: &Ps) -> Result<Value, String> {
        Ok(match p {
            Ps::List(items) => Value::List(
                items
                    .iter()
                    .map(|x| self.value(x))
                    .collect::<Result<_, _>>()?,
            ),
            Ps::Map(m) => Value::Map(
                m.iter()
                    .map(|(k, v)| Ok((Arc::from(k.as_str()), self.value(v)?)))
                    .collect::<Result<_, String>>()?,
            ),
            Ps::Struct(TAG_NODE, f) => Value::Node(self.node(f)?),
            Ps::Struct(TAG_REL, f) => {
                let id = int_field(f, 0, "Relationship")?;
                let start = self.node_handle(int_field(f, 1, "Relationship")?);
                let end = self.node_handle(int_field(f, 2, "Relationship")?);
                let ty = f
                    .get(3)
                    .and_then(Ps::as_str)
                    .ok_or("Relationship: field 3 must be its type")?;
                let props = self.props(f.get(4))?;
                let r = RelId(local_id(id, &mut self.rel_ids));
                self.rels.insert(r, (Arc::from(ty), start, end, props));
                Value::Relationship(r)
            }
            Ps::Struct(TAG_PATH, f) => self.path(f)?,
            Ps::Struct(tag @ (TAG_POINT_2D | TAG_POINT_3D), f) => Value::from(point_of(*tag, f)?),
            other => from_ps(other)?,
        })
    }

    fn node_handle(&mut self, id: i64) -> NodeId {
        NodeId(local_id(id, &mut self.node_ids))
    }

    fn props(&mut self, p: Option<&Ps>) -> Result<BTreeMap<Arc<str>, Value>, String> {
        match p {
            Some(Ps::Map(m)) => m
                .iter()
                .map(|(k, v)| Ok((Arc::from(k.as_str()), self.value(v)?)))
                .collect(),
            None | Some(Ps::Null) => Ok(BTreeMap::new()),
            Some(_) => Err("properties must be a map".into()),
        }
    }

    fn node(&mut self, f: &[Ps]) -> Result<NodeId, String> {
        let n = self.node_handle(int_field(f, 0, "Node")?);
        let labels = match f.get(1) {
            Some(Ps::List(ls)) => ls
                .iter()
                .map(|l| {
                    l.as_str()
                        .map(Arc::from)
                        .ok_or("Node: labels must be strings")
                })
                .collect::<Result<Vec<Arc<str>>, _>>()?,
            _ => return Err("Node: field 1 must be its labels".into()),
        };
        let props = self.props(f.get(2))?;
        self.nodes.insert(n, (labels, props));
        Ok(n)
    }

    fn path(&mut self, f: &[Ps]) -> Result<Value, String> {
        let (Some(Ps::List(ns)), Some(Ps::List(rs)), Some(Ps::List(ix))) =
            (f.first(), f.get(1), f.get(2))
        else {
            return Err("Path: expected nodes, relationships and indices".into());
        };
        let mut nodes = Vec::with_capacity(ns.len());
        for n in ns {
            match n {
                Ps::Struct(TAG_NODE, nf) => nodes.push(self.node(nf)?),
                _ => return Err("Path: nodes must be Node structures".into()),
            }
        }
        let mut unbound = Vec::with_capacity(rs.len());
        for r in rs {
            match r {
                Ps::Struct(TAG_UNBOUND_REL, rf) => {
                    let id = int_field(rf, 0, "UnboundRelationship")?;
                    let ty = rf
                        .get(1)
                        .and_then(Ps::as_str)
                        .ok_or("UnboundRelationship: field 1 must be its type")?;
                    unbound.push((id, Arc::<str>::from(ty), self.props(rf.get(2))?));
                }
                _ => {
                    return Err("Path: relationships must be UnboundRelationship structures".into())
                }
            }
        }
        if ix.len() % 2 != 0 || nodes.is_empty() {
            return Err("Path: malformed indices".into());
        }
        let mut path = crate::value::Path {
            nodes: vec![nodes[0]],
            rels: Vec::with_capacity(ix.len() / 2),
        };
        for pair in ix.chunks(2) {
            let (Some(ri), Some(ni)) = (pair[0].as_int(), pair[1].as_int()) else {
                return Err("Path: indices must be integers".into());
            };
            let (id, ty, props) = usize::try_from(ri.unsigned_abs())
                .ok()
                .and_then(|i| i.checked_sub(1))
                .and_then(|i| unbound.get(i))
                .ok_or("Path: relationship index out of range")?
                .clone();
            let next = *usize::try_from(ni)
                .ok()
                .and_then(|i| nodes.get(i))
                .ok_or("Path: node index out of range")?;
            let prev = *path.nodes.last().unwrap_or(&next);
            let (start, end) = if ri > 0 { (prev, next) } else { (next, prev) };
            let r = RelId(local_id(id, &mut self.rel_ids));
            self.rels.insert(r, (ty, start, end, props));
            path.rels.push(r);
            path.nodes.push(next);
        }
        Ok(Value::Path(Arc::new(path)))
    }

    /// A table of the decoded rows, with every entity they mention.
    pub fn into_table(
        self,
        columns: Vec<String>,
        rows: Vec<Vec<Value>>,
        stats: crate::engine::Stats,
    ) -> crate::engine::Table {
        crate::engine::Table::from_parts(columns, rows, stats, self.nodes, self.rels)
    }
}

#[cfg(test)]
mod tests {
    use super::java_hash_order;

    fn order(keys: &[&str]) -> Vec<String> {
        java_hash_order(keys.iter().map(|k| (k, ())))
            .into_iter()
            .map(|(k, _)| k.to_string())
            .collect()
    }

    /// Orders seen on Neo4j 5.26 for maps built with these keys.
    #[test]
    fn maps_come_in_java_hash_map_order() {
        assert_eq!(order(&["a", "m", "z"]), ["a", "z", "m"]);
        assert_eq!(order(&["b", "y"]), ["b", "y"]);
        assert_eq!(
            order(&["a", "m", "name", "title", "z"]),
            ["a", "name", "z", "title", "m"]
        );
        assert_eq!(
            order(&[
                "labels-added",
                "nodes-created",
                "properties-set",
                "relationships-created"
            ]),
            [
                "labels-added",
                "relationships-created",
                "nodes-created",
                "properties-set"
            ]
        );
        assert_eq!(order(&["e", "é", "日本"]), ["e", "é", "日本"]);
    }
}
