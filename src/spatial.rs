//! Spatial values: Neo4j's POINT, in its four coordinate reference systems, with `point()`'s
//! construction rules, component access (`p.x`, `p.latitude`, `p.crs`, …), distance and
//! bounding-box tests.
//!
//! | CRS | SRID | coordinates |
//! |---|---|---|
//! | `cartesian` | 7203 | x, y |
//! | `cartesian-3d` | 9157 | x, y, z |
//! | `wgs-84` | 4326 | longitude (x), latitude (y) |
//! | `wgs-84-3d` | 4979 | longitude (x), latitude (y), height (z, metres) |
//!
//! Distances are Euclidean in the Cartesian systems and great-circle (haversine, on a sphere of
//! Neo4j's radius, 6,378,140 m) in WGS-84, in metres; a 3D WGS-84 distance combines the
//! great-circle distance at the mean height with the height difference.
//!
//! ```
//! use grape::spatial::{Component, Crs, Input, Point};
//!
//! let p = Point::from_map([("x", Input::Number(1.0)), ("y", Input::Number(2.0))])
//!     .unwrap()
//!     .unwrap();
//! assert_eq!(p.crs, Crs::Cartesian);
//! assert_eq!(p.to_string(), "point({x: 1.0, y: 2.0, crs: 'cartesian'})");
//! assert_eq!(p.distance(&Point::new_2d(Crs::Cartesian, 4.0, 6.0)), Some(5.0));
//! // `point({x: null, y: 2})` is null.
//! assert_eq!(Point::from_map([("x", Input::Null), ("y", Input::Number(2.0))]), Ok(None));
//!
//! let oslo = Point::new_2d(Crs::Wgs84, 10.75, 59.91);
//! assert_eq!(oslo.component("latitude").unwrap(), Component::Number(59.91));
//! assert_eq!(oslo.component("srid").unwrap(), Component::Srid(4326));
//! assert_eq!(p.distance(&oslo), None); // across CRSs
//! // A box across the 180th meridian.
//! let fiji = Point::new_2d(Crs::Wgs84, 179.5, -17.0);
//! let lower_left = Point::new_2d(Crs::Wgs84, 170.0, -20.0);
//! let upper_right = Point::new_2d(Crs::Wgs84, -170.0, -10.0);
//! assert_eq!(fiji.within_bbox(&lower_left, &upper_right), Some(true));
//! ```
//!
//! # Layout
//!
//! POINT: the four CRSs (cartesian, cartesian-3d, wgs-84, wgs-84-3d), `point()`'s rules and
//! messages (`from_map`, shared with the validator's compile-time check of map literals through
//! `invalid_map_message`), components, `point.distance` (Euclidean; haversine on Neo4j's
//! 6,378,140 m sphere, with heights for 3D), `point.withinBBox` (boxes across the 180th meridian),
//! the `ORDER BY` order (CRS code, then coordinates) and `toString`. The engine (`eval.rs`
//! components, `functions.rs`), JSON fixtures (`~point`) and Bolt (Point2D/Point3D) use it.

use std::cmp::Ordering;
use std::fmt;
use thiserror::Error;

/// Neo4j's Earth radius for geographic distances, in metres.
pub const EARTH_RADIUS_METERS: f64 = 6_378_140.0;

/// A coordinate reference system.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Crs {
    Cartesian,
    Cartesian3D,
    Wgs84,
    Wgs84_3D,
}

impl Crs {
    /// Every CRS.
    pub const ALL: [Crs; 4] = [Crs::Cartesian, Crs::Cartesian3D, Crs::Wgs84, Crs::Wgs84_3D];

    /// The name `p.crs` gives and `point({crs: …})` takes.
    pub fn name(self) -> &'static str {
        match self {
            Crs::Cartesian => "cartesian",
            Crs::Cartesian3D => "cartesian-3d",
            Crs::Wgs84 => "wgs-84",
            Crs::Wgs84_3D => "wgs-84-3d",
        }
    }

    /// The EPSG-style code `p.srid` gives (and Bolt carries).
    pub fn srid(self) -> i64 {
        match self {
            Crs::Cartesian => 7203,
            Crs::Cartesian3D => 9157,
            Crs::Wgs84 => 4326,
            Crs::Wgs84_3D => 4979,
        }
    }

    /// The CRS of a name (any case).
    pub fn by_name(name: &str) -> Option<Crs> {
        Crs::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(name))
    }

    /// The CRS of a code.
    pub fn by_srid(srid: i64) -> Option<Crs> {
        Crs::ALL.into_iter().find(|c| c.srid() == srid)
    }

    /// 2 or 3.
    pub fn dimensions(self) -> usize {
        match self {
            Crs::Cartesian | Crs::Wgs84 => 2,
            Crs::Cartesian3D | Crs::Wgs84_3D => 3,
        }
    }

    /// Whether coordinates are longitude/latitude.
    pub fn geographic(self) -> bool {
        matches!(self, Crs::Wgs84 | Crs::Wgs84_3D)
    }

    fn with_dimensions(self, dims: usize) -> Crs {
        match (self.geographic(), dims) {
            (false, 3) => Crs::Cartesian3D,
            (false, _) => Crs::Cartesian,
            (true, 3) => Crs::Wgs84_3D,
            (true, _) => Crs::Wgs84,
        }
    }
}

/// Neo4j's message for a map that does not describe a point (`keys` as given, in order).
pub fn invalid_map_message(keys: &[&str]) -> String {
    let keys: Vec<String> = keys.iter().map(|k| format!("'{k}'")).collect();
    format!(
        "A map with keys {} is not describing a valid point, a point is described either by \
         using cartesian coordinates e.g. {{x: 2.3, y: 4.5, crs: 'cartesian'}} or using \
         geographic coordinates e.g. {{latitude: 12.78, longitude: 56.7, crs: 'WGS-84'}}.",
        keys.join(", ")
    )
}

/// A point: a CRS and its 2 or 3 coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub crs: Crs,
    pub x: f64,
    pub y: f64,
    /// The third coordinate of a 3D point.
    pub z: Option<f64>,
}

/// Why a point cannot be made or read; the messages follow Neo4j's.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum SpatialError {
    #[error("{0}")]
    InvalidPoint(String),
    #[error("{0}")]
    NoSuchField(String),
    /// A key of `point()`'s map given a value of a type it cannot take (`expected`: what it
    /// takes, as Neo4j's GQL status words it).
    #[error("Cannot assign {found} to field {field}")]
    WrongType {
        field: String,
        found: &'static str,
        expected: &'static str,
    },
    /// A WGS-84 latitude outside [-90, 90] (the coordinates as given).
    #[error("Cannot create WGS84 point with invalid coordinate: {coordinates}. Valid range for Y coordinate is [-90, 90].")]
    InvalidLatitude { coordinates: String },
}

/// What `point()` was given for one key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Input<'a> {
    Number(f64),
    Text(&'a str),
    Null,
    /// Anything else (its Cypher type name).
    Other(&'static str),
}

impl Point {
    /// A 2D point.
    pub fn new_2d(crs: Crs, x: f64, y: f64) -> Point {
        Point { crs, x, y, z: None }
    }

    /// The coordinates, 2 or 3.
    pub fn coordinates(&self) -> Vec<f64> {
        let mut c = vec![self.x, self.y];
        c.extend(self.z);
        c
    }

    /// A point from its CRS and coordinates, checking WGS-84's ranges.
    pub fn from_coordinates(crs: Crs, coords: &[f64]) -> Result<Point, SpatialError> {
        if coords.len() != crs.dimensions() {
            let (have, use_) = if crs.dimensions() == 2 {
                ("2D", "3D")
            } else {
                ("3D", "2D")
            };
            return Err(SpatialError::InvalidPoint(format!(
                "Cannot create point with {have} coordinate reference system and {} coordinates. \
                 Please consider using equivalent {use_} coordinate reference system",
                coords.len()
            )));
        }
        if coords.iter().any(|c| !c.is_finite()) {
            return Err(SpatialError::InvalidPoint(format!(
                "Cannot create a point with non-finite coordinate values: {coords:?}"
            )));
        }
        let mut x = coords[0];
        if crs.geographic() {
            if !(-90.0..=90.0).contains(&coords[1]) {
                return Err(SpatialError::InvalidLatitude {
                    coordinates: coordinate_list(coords),
                });
            }
            x = normalized_longitude(x);
        }
        Ok(Point {
            crs,
            x,
            y: coords[1],
            z: coords.get(2).copied(),
        })
    }

    /// `point(map)`: `Ok(None)` when a coordinate (or the CRS) is null, as Neo4j returns null.
    pub fn from_map<'a>(
        entries: impl IntoIterator<Item = (&'a str, Input<'a>)>,
    ) -> Result<Option<Point>, SpatialError> {
        let invalid = |m: String| SpatialError::InvalidPoint(m);
        let (mut x, mut y, mut z) = (None, None, None);
        let (mut geo_keys, mut cartesian_keys) = (false, false);
        let mut crs: Option<Crs> = None;
        let mut null = false;
        let mut keys: Vec<&str> = Vec::new();
        for (key, value) in entries {
            keys.push(key);
            let lower = key.to_ascii_lowercase();
            let slot = match lower.as_str() {
                "x" => {
                    cartesian_keys = true;
                    Some(&mut x)
                }
                "y" => {
                    cartesian_keys = true;
                    Some(&mut y)
                }
                "z" => {
                    cartesian_keys = true;
                    Some(&mut z)
                }
                "longitude" => {
                    geo_keys = true;
                    Some(&mut x)
                }
                "latitude" => {
                    geo_keys = true;
                    Some(&mut y)
                }
                "height" => {
                    geo_keys = true;
                    Some(&mut z)
                }
                "crs" | "srid" => None,
                _ => {
                    return Err(invalid(format!(
                        "Unknown key '{key}' for creating new point"
                    )))
                }
            };
            let wrong_type = |found: Input<'_>, expected: &'static str| SpatialError::WrongType {
                field: key.to_string(),
                found: input_type(found),
                expected,
            };
            match (slot, value) {
                (_, Input::Null) => null = true,
                (Some(slot), Input::Number(n)) => *slot = Some(n),
                (Some(_), other) => return Err(wrong_type(other, "FLOAT or INTEGER")),
                (None, Input::Text(name)) if lower == "crs" => {
                    let c = Crs::by_name(name).ok_or_else(|| {
                        invalid(format!("Unknown coordinate reference system: {name}"))
                    })?;
                    if crs.is_some_and(|have| have != c) {
                        return Err(invalid(
                            "Cannot specify both CRS and SRID for creating a point".into(),
                        ));
                    }
                    crs = Some(c);
                }
                (None, Input::Number(code)) if lower == "srid" => {
                    let c = (code.fract() == 0.0)
                        .then(|| Crs::by_srid(code as i64))
                        .flatten()
                        .ok_or_else(|| {
                            invalid(format!(
                                "Unknown coordinate reference system: code={}",
                                crate::value::format_float(code).trim_end_matches(".0")
                            ))
                        })?;
                    if crs.is_some_and(|have| have != c) {
                        return Err(invalid(
                            "Cannot specify both CRS and SRID for creating a point".into(),
                        ));
                    }
                    crs = Some(c);
                }
                (None, other) if lower == "crs" => return Err(wrong_type(other, "STRING")),
                (None, other) => return Err(wrong_type(other, "INTEGER")),
            }
        }
        if null {
            return Ok(None);
        }
        let (Some(x), Some(y)) = (x, y) else {
            return Err(invalid(invalid_map_message(&keys)));
        };
        if geo_keys && cartesian_keys {
            return Err(invalid(invalid_map_message(&keys)));
        }
        let mut coords = vec![x, y];
        coords.extend(z);
        let crs = match crs {
            Some(c) => c,
            None if geo_keys => Crs::Wgs84.with_dimensions(coords.len()),
            None => Crs::Cartesian.with_dimensions(coords.len()),
        };
        Point::from_coordinates(crs, &coords).map(Some)
    }

    /// A component: `x`, `y`, `z`, `longitude`, `latitude`, `height`, `crs` or `srid` (any
    /// case).
    pub fn component(&self, key: &str) -> Result<Component, SpatialError> {
        let unavailable = || {
            SpatialError::NoSuchField(format!(
                "Field: {key} is not available on {} point: {self}",
                if self.crs.geographic() {
                    "geographic"
                } else {
                    "cartesian"
                }
            ))
        };
        Ok(match key.to_ascii_lowercase().as_str() {
            "x" => Component::Number(self.x),
            "y" => Component::Number(self.y),
            "z" => Component::Number(self.z.ok_or_else(unavailable)?),
            "longitude" if self.crs.geographic() => Component::Number(self.x),
            "latitude" if self.crs.geographic() => Component::Number(self.y),
            "height" if self.crs.geographic() => Component::Number(self.z.ok_or_else(unavailable)?),
            "longitude" | "latitude" | "height" => return Err(unavailable()),
            "crs" => Component::Crs(self.crs.name()),
            "srid" => Component::Srid(self.crs.srid()),
            _ => return Err(SpatialError::NoSuchField(format!("No such field: {key}"))),
        })
    }

    /// `point.distance(a, b)` in the CRS's unit (metres for WGS-84); `None` across CRSs.
    pub fn distance(&self, other: &Point) -> Option<f64> {
        if self.crs != other.crs {
            return None;
        }
        if !self.crs.geographic() {
            let d2: f64 = self
                .coordinates()
                .iter()
                .zip(other.coordinates())
                .map(|(a, b)| (a - b) * (a - b))
                .sum();
            return Some(d2.sqrt());
        }
        let (lat1, lat2) = (self.y.to_radians(), other.y.to_radians());
        let d_lat = lat2 - lat1;
        let d_lon = (other.x - self.x).to_radians();
        let a = (d_lat / 2.0).sin().powi(2) + lat1.cos() * lat2.cos() * (d_lon / 2.0).sin().powi(2);
        let c = 2.0 * a.sqrt().atan2((1.0 - a).sqrt());
        match (self.z, other.z) {
            (Some(h1), Some(h2)) => {
                let surface = (EARTH_RADIUS_METERS + (h1 + h2) / 2.0) * c;
                Some((surface * surface + (h1 - h2) * (h1 - h2)).sqrt())
            }
            _ => Some(EARTH_RADIUS_METERS * c),
        }
    }

    /// `point.withinBBox(p, lowerLeft, upperRight)`; `None` when the CRSs differ. In WGS-84 a
    /// box whose lower-left longitude is east of its upper-right one crosses the 180th meridian.
    pub fn within_bbox(&self, lower_left: &Point, upper_right: &Point) -> Option<bool> {
        if self.crs != lower_left.crs || self.crs != upper_right.crs {
            return None;
        }
        let x_in = if self.crs.geographic() && lower_left.x > upper_right.x {
            self.x >= lower_left.x || self.x <= upper_right.x
        } else {
            lower_left.x <= self.x && self.x <= upper_right.x
        };
        let y_in = lower_left.y <= self.y && self.y <= upper_right.y;
        let z_in = match (self.z, lower_left.z, upper_right.z) {
            (Some(z), Some(lo), Some(hi)) => lo <= z && z <= hi,
            _ => true,
        };
        Some(x_in && y_in && z_in)
    }

    /// The order `ORDER BY` gives points: by CRS, then coordinate by coordinate.
    pub fn order(&self, other: &Point) -> Ordering {
        self.crs.srid().cmp(&other.crs.srid()).then_with(|| {
            self.coordinates()
                .iter()
                .zip(other.coordinates())
                .map(|(a, b)| a.total_cmp(&b))
                .find(|o| *o != Ordering::Equal)
                .unwrap_or(Ordering::Equal)
        })
    }
}

/// A point's component.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Component {
    Number(f64),
    Crs(&'static str),
    Srid(i64),
}

/// A WGS-84 longitude brought into [-180, 180] as Neo4j brings it: 360 taken away while it is
/// above 180, added while it is below -180 (200 is -160, 540 is 180, -540 is -180), step by
/// step so that the rounding is Neo4j's. Where that would take more than 65,536 steps (beyond
/// 23,592,960 degrees; Neo4j never finishes once a step no longer changes the value), in one
/// step: a point costs at most that many subtractions.
fn normalized_longitude(mut x: f64) -> f64 {
    const STEPS: f64 = 65_536.0;
    if x.abs() > 180.0 + 360.0 * STEPS {
        x = (x + 180.0).rem_euclid(360.0) - 180.0;
    }
    while x > 180.0 {
        x -= 360.0;
    }
    while x < -180.0 {
        x += 360.0;
    }
    x
}

fn input_type(i: Input<'_>) -> &'static str {
    match i {
        Input::Number(_) => "FLOAT",
        Input::Text(_) => "STRING",
        Input::Null => "NULL",
        Input::Other(t) => t,
    }
}

fn coordinate_list(coords: &[f64]) -> String {
    let parts: Vec<String> = coords
        .iter()
        .map(|c| crate::value::format_float(*c))
        .collect();
    format!("[{}]", parts.join(", "))
}

impl fmt::Display for Point {
    /// As Neo4j's `toString(point)`: `point({x: 2.3, y: 4.5, crs: 'cartesian'})`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ff = crate::value::format_float;
        write!(f, "point({{x: {}, y: {}", ff(self.x), ff(self.y))?;
        if let Some(z) = self.z {
            write!(f, ", z: {}", ff(z))?;
        }
        write!(f, ", crs: '{}'}})", self.crs.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(entries: &[(&str, Input<'static>)]) -> Result<Option<Point>, SpatialError> {
        Point::from_map(entries.iter().copied())
    }

    use Input::{Null, Number as N, Text as T};

    #[test]
    fn construction_picks_the_crs() {
        let a = p(&[("x", N(2.3)), ("y", N(4.5))]).unwrap().unwrap();
        assert_eq!(a.crs, Crs::Cartesian);
        assert_eq!(a.to_string(), "point({x: 2.3, y: 4.5, crs: 'cartesian'})");
        let b = p(&[("x", N(1.0)), ("y", N(2.0)), ("z", N(3.0))])
            .unwrap()
            .unwrap();
        assert_eq!(b.crs, Crs::Cartesian3D);
        let c = p(&[("longitude", N(12.5)), ("latitude", N(55.6))])
            .unwrap()
            .unwrap();
        assert_eq!(c.crs, Crs::Wgs84);
        assert_eq!(c.crs.srid(), 4326);
        let d = p(&[
            ("latitude", N(1.0)),
            ("longitude", N(2.0)),
            ("height", N(3.0)),
        ])
        .unwrap()
        .unwrap();
        assert_eq!((d.crs, d.x, d.y, d.z), (Crs::Wgs84_3D, 2.0, 1.0, Some(3.0)));
        let e = p(&[("x", N(1.0)), ("y", N(2.0)), ("crs", T("WGS-84"))])
            .unwrap()
            .unwrap();
        assert_eq!(e.crs, Crs::Wgs84);
        let f = p(&[("x", N(1.0)), ("y", N(2.0)), ("srid", N(9157.0))]);
        assert!(f
            .unwrap_err()
            .to_string()
            .contains("3D coordinate reference system and 2"));
        assert_eq!(p(&[("x", Null), ("y", N(1.0))]), Ok(None));
    }

    #[test]
    fn bad_points_say_why() {
        let msg = |e: &[(&str, Input<'static>)]| p(e).unwrap_err().to_string();
        assert!(msg(&[("x", N(1.0))])
            .starts_with("A map with keys 'x' is not describing a valid point"));
        assert!(msg(&[("x", N(1.0)), ("y", N(1.0)), ("crs", T("mars"))])
            .contains("Unknown coordinate reference system: mars"));
        assert!(msg(&[("x", N(1.0)), ("y", N(1.0)), ("srid", N(1.0))])
            .contains("Unknown coordinate reference system: code=1"));
        assert!(msg(&[("longitude", N(1.0)), ("latitude", N(91.0))])
            .contains("Valid range for Y coordinate is [-90, 90]"));
        assert_eq!(
            p(&[("x", T("1")), ("y", N(1.0))]),
            Err(SpatialError::WrongType {
                field: "x".into(),
                found: "STRING",
                expected: "FLOAT or INTEGER"
            })
        );
        assert!(matches!(
            p(&[("x", N(1.0)), ("y", N(1.0)), ("crs", N(5.0))]),
            Err(SpatialError::WrongType {
                expected: "STRING",
                ..
            })
        ));
        assert!(matches!(
            p(&[("x", N(1.0)), ("y", N(1.0)), ("srid", T("a"))]),
            Err(SpatialError::WrongType {
                expected: "INTEGER",
                ..
            })
        ));
        assert!(msg(&[("x", N(1.0)), ("y", N(1.0)), ("w", N(1.0))]).contains("Unknown key 'w'"));
        assert!(msg(&[("x", T("1")), ("y", N(1.0))]).contains("Cannot assign STRING to field x"));
    }

    /// A longitude outside [-180, 180] is brought into it, with Neo4j 5.26's rounding (its
    /// answers, asked on the oracle); a latitude outside [-90, 90] is refused.
    #[test]
    fn longitudes_wrap_as_neo4j_wraps_them() {
        let x = |lon: f64| Point::from_coordinates(Crs::Wgs84, &[lon, 10.0]).unwrap().x;
        for (lon, want) in [
            (200.0, -160.0),
            (540.0, 180.0),
            (-540.0, -180.0),
            (-200.0, 160.0),
            (360.0, 0.0),
            (180.0, 180.0),
            (-180.0, -180.0),
            (180.1, -179.9),
            (1000.7, -79.29999999999995),
            (-1000.3, 79.70000000000005),
            (100000.123, -79.87699999999313),
        ] {
            assert_eq!(x(lon), want, "{lon}");
        }
        // Where Neo4j never answers, an answer in range.
        for lon in [1e300, -1e300, 1e12 + 0.5, f64::MAX] {
            assert!((-180.0..=180.0).contains(&x(lon)), "{lon}");
        }
        let p3 = Point::from_coordinates(Crs::Wgs84_3D, &[190.5, 10.0, 1.0]).unwrap();
        assert_eq!(p3.coordinates(), vec![-169.5, 10.0, 1.0]);
        assert_eq!(
            Point::from_coordinates(Crs::Wgs84, &[200.0, 91.0]),
            Err(SpatialError::InvalidLatitude {
                coordinates: "[200.0, 91.0]".into()
            })
        );
        // Cartesian coordinates are kept.
        let c = Point::from_coordinates(Crs::Cartesian, &[200.0, 91.0]).unwrap();
        assert_eq!(c.coordinates(), vec![200.0, 91.0]);
    }

    #[test]
    fn components() {
        let c = Point::from_coordinates(Crs::Wgs84, &[12.0, 55.0]).unwrap();
        assert_eq!(c.component("latitude"), Ok(Component::Number(55.0)));
        assert_eq!(c.component("X"), Ok(Component::Number(12.0)));
        assert_eq!(c.component("crs"), Ok(Component::Crs("wgs-84")));
        assert_eq!(c.component("srid"), Ok(Component::Srid(4326)));
        assert!(c.component("z").is_err());
        assert!(c.component("foo").is_err());
        let k = Point::new_2d(Crs::Cartesian, 1.0, 2.0);
        assert!(k.component("latitude").is_err());
    }

    #[test]
    fn distances_and_boxes() {
        let a = Point::new_2d(Crs::Cartesian, 2.3, 4.5);
        let b = Point::new_2d(Crs::Cartesian, 1.1, 5.4);
        assert!((a.distance(&b).unwrap() - 1.5).abs() < 1e-12);
        // Copenhagen and Malmö central stations (the Neo4j manual's example): 27,842 m.
        let cph = Point::new_2d(Crs::Wgs84, 12.56459, 55.672874);
        let mmo = Point::new_2d(Crs::Wgs84, 12.994341, 55.611784);
        assert_eq!(cph.distance(&mmo).unwrap().round(), 27842.0);
        assert_eq!(a.distance(&cph), None);
        let ll = Point::new_2d(Crs::Cartesian, 0.0, 0.0);
        let ur = Point::new_2d(Crs::Cartesian, 10.0, 10.0);
        assert_eq!(a.within_bbox(&ll, &ur), Some(true));
        assert_eq!(ll.within_bbox(&ll, &ur), Some(true), "edges are inside");
        assert_eq!(
            Point::new_2d(Crs::Cartesian, 11.0, 1.0).within_bbox(&ll, &ur),
            Some(false)
        );
        // A WGS-84 box across the 180th meridian.
        let west = Point::new_2d(Crs::Wgs84, 170.0, 0.0);
        let east = Point::new_2d(Crs::Wgs84, -170.0, 10.0);
        assert_eq!(
            Point::new_2d(Crs::Wgs84, 179.0, 5.0).within_bbox(&west, &east),
            Some(true)
        );
        assert_eq!(
            Point::new_2d(Crs::Wgs84, 0.0, 5.0).within_bbox(&west, &east),
            Some(false)
        );
        assert_eq!(cph.within_bbox(&ll, &ur), None);
    }
}
