//! PackStream, Bolt's binary value format: null, booleans, 64-bit integers in the smallest of
//! five encodings, 64-bit floats, byte arrays, UTF-8 strings, lists, maps with string keys and
//! tagged structures (nodes, relationships, temporal values, messages).
//!
//! Decoding is bounded: nesting deeper than [`MAX_DEPTH`] and sizes beyond the input are errors,
//! never panics or huge allocations.

use std::fmt;

/// A PackStream value.
#[derive(Clone, Debug, PartialEq)]
pub enum Ps {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Bytes(Vec<u8>),
    String(String),
    List(Vec<Ps>),
    /// Entries in wire order.
    Map(Vec<(String, Ps)>),
    /// A structure: its tag byte and fields.
    Struct(u8, Vec<Ps>),
}

impl Ps {
    /// A map from `(key, value)` pairs.
    pub fn map<K: Into<String>>(entries: impl IntoIterator<Item = (K, Ps)>) -> Ps {
        Ps::Map(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }
    /// The value of `key` in a map (`None` for other values or a missing key).
    pub fn get(&self, key: &str) -> Option<&Ps> {
        match self {
            Ps::Map(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Ps::String(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Ps::Int(i) => Some(*i),
            _ => None,
        }
    }
}

impl From<&str> for Ps {
    fn from(s: &str) -> Ps {
        Ps::String(s.to_string())
    }
}
impl From<String> for Ps {
    fn from(s: String) -> Ps {
        Ps::String(s)
    }
}
impl From<i64> for Ps {
    fn from(i: i64) -> Ps {
        Ps::Int(i)
    }
}
impl From<bool> for Ps {
    fn from(b: bool) -> Ps {
        Ps::Bool(b)
    }
}

/// Nesting depth a decoded value may have.
pub const MAX_DEPTH: usize = 128;

/// A malformed PackStream value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError(pub String);

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "malformed PackStream: {}", self.0)
    }
}

impl std::error::Error for DecodeError {}

/// Appends the encoding of `v` to `out`.
pub fn encode(v: &Ps, out: &mut Vec<u8>) {
    match v {
        Ps::Null => out.push(0xC0),
        Ps::Bool(false) => out.push(0xC2),
        Ps::Bool(true) => out.push(0xC3),
        Ps::Int(i) => encode_int(*i, out),
        Ps::Float(f) => {
            out.push(0xC1);
            out.extend_from_slice(&f.to_bits().to_be_bytes());
        }
        Ps::Bytes(b) => {
            size_marker(b.len(), None, [0xCC, 0xCD, 0xCE], out);
            out.extend_from_slice(b);
        }
        Ps::String(s) => {
            size_marker(s.len(), Some(0x80), [0xD0, 0xD1, 0xD2], out);
            out.extend_from_slice(s.as_bytes());
        }
        Ps::List(items) => {
            size_marker(items.len(), Some(0x90), [0xD4, 0xD5, 0xD6], out);
            for x in items {
                encode(x, out);
            }
        }
        Ps::Map(entries) => {
            size_marker(entries.len(), Some(0xA0), [0xD8, 0xD9, 0xDA], out);
            for (k, x) in entries {
                size_marker(k.len(), Some(0x80), [0xD0, 0xD1, 0xD2], out);
                out.extend_from_slice(k.as_bytes());
                encode(x, out);
            }
        }
        Ps::Struct(tag, fields) => {
            // Structures have at most 15 fields.
            out.push(0xB0 | (fields.len().min(15) as u8));
            out.push(*tag);
            for x in fields.iter().take(15) {
                encode(x, out);
            }
        }
    }
}

fn encode_int(i: i64, out: &mut Vec<u8>) {
    if (-16..=127).contains(&i) {
        out.push(i as i8 as u8);
    } else if (i8::MIN as i64..=i8::MAX as i64).contains(&i) {
        out.push(0xC8);
        out.push(i as i8 as u8);
    } else if (i16::MIN as i64..=i16::MAX as i64).contains(&i) {
        out.push(0xC9);
        out.extend_from_slice(&(i as i16).to_be_bytes());
    } else if (i32::MIN as i64..=i32::MAX as i64).contains(&i) {
        out.push(0xCA);
        out.extend_from_slice(&(i as i32).to_be_bytes());
    } else {
        out.push(0xCB);
        out.extend_from_slice(&i.to_be_bytes());
    }
}

/// The marker of a sized value: a tiny marker (`tiny | len`) below 16 when there is one, else
/// the 8-, 16- or 32-bit size marker.
fn size_marker(len: usize, tiny: Option<u8>, markers: [u8; 3], out: &mut Vec<u8>) {
    match tiny {
        Some(t) if len < 16 => out.push(t | len as u8),
        _ if len <= u8::MAX as usize => {
            out.push(markers[0]);
            out.push(len as u8);
        }
        _ if len <= u16::MAX as usize => {
            out.push(markers[1]);
            out.extend_from_slice(&(len as u16).to_be_bytes());
        }
        _ => {
            out.push(markers[2]);
            out.extend_from_slice(&(len.min(u32::MAX as usize) as u32).to_be_bytes());
        }
    }
}

/// Decodes one value from the start of `bytes`: the value and the bytes it took.
pub fn decode(bytes: &[u8]) -> Result<(Ps, usize), DecodeError> {
    let mut d = Decoder { b: bytes, at: 0 };
    let v = d.value(0)?;
    Ok((v, d.at))
}

/// Decodes exactly one value that fills `bytes`.
pub fn decode_all(bytes: &[u8]) -> Result<Ps, DecodeError> {
    let (v, n) = decode(bytes)?;
    if n != bytes.len() {
        return Err(DecodeError(format!(
            "{} bytes left after the value",
            bytes.len() - n
        )));
    }
    Ok(v)
}

struct Decoder<'a> {
    b: &'a [u8],
    at: usize,
}

impl Decoder<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], DecodeError> {
        if self.b.len() - self.at < n {
            return Err(DecodeError(format!(
                "value needs {n} bytes at offset {}, {} left",
                self.at,
                self.b.len() - self.at
            )));
        }
        let s = &self.b[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, DecodeError> {
        Ok(self.take(1)?[0])
    }
    fn be<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }
    /// A size that must fit in the remaining input (each item takes at least one byte).
    fn size(&mut self, marker: u8, base: u8) -> Result<usize, DecodeError> {
        let n = match marker - base {
            0 => self.u8()? as usize,
            1 => u16::from_be_bytes(self.be()?) as usize,
            _ => u32::from_be_bytes(self.be()?) as usize,
        };
        if n > self.b.len() - self.at {
            return Err(DecodeError(format!(
                "size {n} at offset {} exceeds the message",
                self.at
            )));
        }
        Ok(n)
    }
    fn string(&mut self, n: usize) -> Result<String, DecodeError> {
        let at = self.at;
        let s = self.take(n)?;
        std::str::from_utf8(s)
            .map(str::to_string)
            .map_err(|_| DecodeError(format!("string at offset {at} is not UTF-8")))
    }
    fn value(&mut self, depth: usize) -> Result<Ps, DecodeError> {
        if depth > MAX_DEPTH {
            return Err(DecodeError(format!("nested deeper than {MAX_DEPTH}")));
        }
        let at = self.at;
        let m = self.u8()?;
        Ok(match m {
            0x00..=0x7F => Ps::Int(m as i64),
            0xF0..=0xFF => Ps::Int(m as i8 as i64),
            0xC0 => Ps::Null,
            0xC1 => Ps::Float(f64::from_bits(u64::from_be_bytes(self.be()?))),
            0xC2 => Ps::Bool(false),
            0xC3 => Ps::Bool(true),
            0xC8 => Ps::Int(self.u8()? as i8 as i64),
            0xC9 => Ps::Int(i16::from_be_bytes(self.be()?) as i64),
            0xCA => Ps::Int(i32::from_be_bytes(self.be()?) as i64),
            0xCB => Ps::Int(i64::from_be_bytes(self.be()?)),
            0xCC..=0xCE => {
                let n = self.size(m, 0xCC)?;
                Ps::Bytes(self.take(n)?.to_vec())
            }
            0x80..=0x8F => self.string((m & 0x0F) as usize).map(Ps::String)?,
            0xD0..=0xD2 => {
                let n = self.size(m, 0xD0)?;
                Ps::String(self.string(n)?)
            }
            0x90..=0x9F | 0xD4..=0xD6 => {
                let n = if m <= 0x9F {
                    (m & 0x0F) as usize
                } else {
                    self.size(m, 0xD4)?
                };
                let mut items = Vec::with_capacity(n.min(1024));
                for _ in 0..n {
                    items.push(self.value(depth + 1)?);
                }
                Ps::List(items)
            }
            0xA0..=0xAF | 0xD8..=0xDA => {
                let n = if m <= 0xAF {
                    (m & 0x0F) as usize
                } else {
                    self.size(m, 0xD8)?
                };
                let mut entries = Vec::with_capacity(n.min(1024));
                for _ in 0..n {
                    let key = match self.value(depth + 1)? {
                        Ps::String(s) => s,
                        other => {
                            return Err(DecodeError(format!("map key {other:?} is not a string")))
                        }
                    };
                    entries.push((key, self.value(depth + 1)?));
                }
                Ps::Map(entries)
            }
            0xB0..=0xBF => {
                let n = (m & 0x0F) as usize;
                let tag = self.u8()?;
                let mut fields = Vec::with_capacity(n);
                for _ in 0..n {
                    fields.push(self.value(depth + 1)?);
                }
                Ps::Struct(tag, fields)
            }
            other => {
                return Err(DecodeError(format!(
                    "unknown marker 0x{other:02X} at offset {at}"
                )))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn round(v: &Ps) -> Ps {
        let mut b = Vec::new();
        encode(v, &mut b);
        decode_all(&b).unwrap()
    }

    #[test]
    fn integers_take_the_smallest_encoding() {
        let enc = |i: i64| {
            let mut b = Vec::new();
            encode(&Ps::Int(i), &mut b);
            b
        };
        assert_eq!(enc(1), vec![0x01]);
        assert_eq!(enc(-16), vec![0xF0]);
        assert_eq!(enc(-17), vec![0xC8, 0xEF]);
        assert_eq!(enc(128), vec![0xC9, 0x00, 0x80]);
        assert_eq!(enc(-129), vec![0xC9, 0xFF, 0x7F]);
        assert_eq!(enc(32768), vec![0xCA, 0x00, 0x00, 0x80, 0x00]);
        assert_eq!(enc(i64::MAX)[0], 0xCB);
        for i in [
            0,
            127,
            -16,
            -17,
            -128,
            128,
            32767,
            -32769,
            1 << 40,
            i64::MIN,
        ] {
            assert_eq!(round(&Ps::Int(i)), Ps::Int(i));
        }
    }

    #[test]
    fn documented_examples() {
        // From the PackStream specification's examples.
        let mut b = Vec::new();
        encode(&Ps::from("A"), &mut b);
        assert_eq!(b, vec![0x81, 0x41]);
        b.clear();
        encode(&Ps::map([("one", Ps::Int(1))]), &mut b);
        assert_eq!(b, vec![0xA1, 0x83, 0x6F, 0x6E, 0x65, 0x01]);
        b.clear();
        encode(&Ps::Float(1.1), &mut b);
        assert_eq!(
            b,
            vec![0xC1, 0x3F, 0xF1, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9A]
        );
        b.clear();
        encode(&Ps::List((1..=16).map(Ps::Int).collect()), &mut b);
        assert_eq!(&b[..2], &[0xD4, 16]);
    }

    #[test]
    fn malformed_input_is_an_error() {
        for bad in [
            &[0xD0][..],
            &[0xD0, 0x05, b'a'],
            &[0xD6, 0xFF, 0xFF, 0xFF, 0xFF],
            &[0xA1, 0x01, 0x01],
            &[0x82, 0xFF, 0xFE],
            &[0xE0],
            &[0xC1, 0x00],
        ] {
            assert!(decode(bad).is_err(), "{bad:?}");
        }
        let deep: Vec<u8> = std::iter::repeat_n(0x91, 10_000).chain([0xC0]).collect();
        assert!(decode(&deep).is_err());
        assert!(decode_all(&[0x01, 0x02]).is_err());
    }

    fn ps() -> impl Strategy<Value = Ps> {
        let leaf = prop_oneof![
            Just(Ps::Null),
            any::<bool>().prop_map(Ps::Bool),
            any::<i64>().prop_map(Ps::Int),
            any::<f64>()
                .prop_filter("NaN compares unequal", |f| !f.is_nan())
                .prop_map(Ps::Float),
            ".{0,20}".prop_map(Ps::String),
            proptest::collection::vec(any::<u8>(), 0..40).prop_map(Ps::Bytes),
        ];
        leaf.prop_recursive(4, 64, 20, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..20).prop_map(Ps::List),
                proptest::collection::vec((".{0,8}", inner.clone()), 0..20).prop_map(Ps::Map),
                (any::<u8>(), proptest::collection::vec(inner, 0..15))
                    .prop_map(|(t, f)| Ps::Struct(t, f)),
            ]
        })
    }

    proptest! {
        #[test]
        fn values_round_trip(v in ps()) {
            prop_assert_eq!(round(&v), v);
        }

        #[test]
        fn arbitrary_bytes_never_panic(b in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = decode(&b);
        }
    }
}
