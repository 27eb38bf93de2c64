//! `apoc.util.compress(text, {compression, charset})` → a byte array, and
//! `apoc.util.decompress(bytes, {compression, charset})` → the text: `GZIP` (APOC's default),
//! `DEFLATE` (zlib-wrapped, as commons-compress writes it), `BZIP2`, `BLOCK_LZ4` (a raw LZ4
//! block), `FRAMED_SNAPPY` and `NONE`; charsets `UTF-8` (the default), `UTF-16` (big-endian
//! with a byte-order mark, as Java writes it), `UTF-16BE`, `UTF-16LE`, `ISO-8859-1` and
//! `US-ASCII`. Decompression stops at 200 times the compressed size, APOC's guard against
//! compression bombs.

use super::{arg, failed};
use crate::engine::error::Result;
use crate::engine::exec::Runner;
use crate::value::Value;
use std::io::{Read, Write};

family! {
    /// The functions of this file.
    CompressFn {
        "apoc.util.compress" => UtilCompress,
        "apoc.util.decompress" => UtilDecompress,
    }
}

/// APOC's default `apoc.max.decompression.ratio`.
const MAX_RATIO: usize = 200;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Algo {
    Gzip,
    Deflate,
    Bzip2,
    BlockLz4,
    FramedSnappy,
    None,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Charset {
    Utf8,
    Utf16,
    Utf16Be,
    Utf16Le,
    Latin1,
    Ascii,
}

fn config(n: &str, v: &Value) -> Result<(Algo, Charset)> {
    let get = |k: &str, default: &'static str| -> Result<String> {
        match v {
            Value::Map(m) => match m.get(k) {
                None | Some(Value::Null) => Ok(default.to_string()),
                Some(Value::String(s)) => Ok(s.to_string()),
                Some(other) => Err(super::wrong(n, other, "a string")),
            },
            Value::Null => Ok(default.to_string()),
            other => Err(super::wrong(n, other, "a map")),
        }
    };
    let algo = match get("compression", "GZIP")?.as_str() {
        "GZIP" => Algo::Gzip,
        "DEFLATE" => Algo::Deflate,
        "BZIP2" => Algo::Bzip2,
        "BLOCK_LZ4" => Algo::BlockLz4,
        "FRAMED_SNAPPY" => Algo::FramedSnappy,
        "NONE" => Algo::None,
        other => {
            return Err(failed(
                n,
                format!("java.lang.IllegalArgumentException: No enum constant apoc.util.CompressionAlgo.{other}"),
            ))
        }
    };
    let charset_name = get("charset", "UTF-8")?;
    let charset = match charset_name.to_ascii_uppercase().replace('_', "-").as_str() {
        "UTF-8" | "UTF8" => Charset::Utf8,
        "UTF-16" | "UTF16" => Charset::Utf16,
        "UTF-16BE" => Charset::Utf16Be,
        "UTF-16LE" => Charset::Utf16Le,
        "ISO-8859-1" | "LATIN1" | "ISO8859-1" => Charset::Latin1,
        "US-ASCII" | "ASCII" => Charset::Ascii,
        _ => {
            return Err(failed(
                n,
                format!("java.nio.charset.UnsupportedCharsetException: {charset_name}"),
            ))
        }
    };
    Ok((algo, charset))
}

/// Java's `String.getBytes(charset)` (unmappable characters become `?`).
fn encode(s: &str, c: Charset) -> Vec<u8> {
    match c {
        Charset::Utf8 => s.as_bytes().to_vec(),
        Charset::Utf16 | Charset::Utf16Be => {
            let mut out = if c == Charset::Utf16 {
                vec![0xfe, 0xff]
            } else {
                Vec::new()
            };
            for u in s.encode_utf16() {
                out.extend_from_slice(&u.to_be_bytes());
            }
            out
        }
        Charset::Utf16Le => s.encode_utf16().flat_map(u16::to_le_bytes).collect(),
        Charset::Latin1 => s
            .chars()
            .map(|ch| u8::try_from(u32::from(ch)).unwrap_or(b'?'))
            .collect(),
        Charset::Ascii => s
            .chars()
            .map(|ch| if ch.is_ascii() { ch as u8 } else { b'?' })
            .collect(),
    }
}

/// Java's `new String(bytes, charset)` (malformed input becomes U+FFFD).
fn decode(b: &[u8], c: Charset) -> String {
    let utf16 = |b: &[u8], big: bool| -> String {
        let units: Vec<u16> = b
            .chunks(2)
            .map(|p| match (p, big) {
                ([x, y], true) => u16::from_be_bytes([*x, *y]),
                ([x, y], false) => u16::from_le_bytes([*x, *y]),
                _ => 0xfffd,
            })
            .collect();
        String::from_utf16_lossy(&units)
    };
    match c {
        Charset::Utf8 => String::from_utf8_lossy(b).into_owned(),
        Charset::Utf16 => match b {
            [0xfe, 0xff, rest @ ..] => utf16(rest, true),
            [0xff, 0xfe, rest @ ..] => utf16(rest, false),
            _ => utf16(b, true),
        },
        Charset::Utf16Be => utf16(b, true),
        Charset::Utf16Le => utf16(b, false),
        Charset::Latin1 => b.iter().map(|&x| char::from(x)).collect(),
        Charset::Ascii => b
            .iter()
            .map(|&x| {
                if x.is_ascii() {
                    char::from(x)
                } else {
                    '\u{fffd}'
                }
            })
            .collect(),
    }
}

pub(super) fn dispatch(run: &Runner, n: &str, m: CompressFn, args: &[Value]) -> Result<Value> {
    let (algo, charset) = config(n, arg(args, 1))?;
    let io = |e: std::io::Error| failed(n, format!("java.io.IOException: {e}"));
    if m == CompressFn::UtilCompress {
        let s = match arg(args, 0) {
            Value::String(s) => s,
            Value::Null => return Err(failed(n, "java.lang.NullPointerException")),
            other => return Err(super::wrong(n, other, "a string")),
        };
        let raw = encode(s, charset);
        run.sh.can_allocate(raw.len().saturating_mul(2))?;
        let out = match algo {
            Algo::None => raw,
            Algo::Gzip => {
                let mut e = flate2::GzBuilder::new()
                    .operating_system(255)
                    .write(Vec::new(), flate2::Compression::new(6));
                e.write_all(&raw).map_err(io)?;
                e.finish().map_err(io)?
            }
            Algo::Deflate => {
                let mut e =
                    flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(6));
                e.write_all(&raw).map_err(io)?;
                e.finish().map_err(io)?
            }
            Algo::Bzip2 => {
                let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::best());
                e.write_all(&raw).map_err(io)?;
                e.finish().map_err(io)?
            }
            Algo::BlockLz4 => lz4_flex::block::compress(&raw),
            Algo::FramedSnappy => {
                let mut e = snap::write::FrameEncoder::new(Vec::new());
                e.write_all(&raw).map_err(io)?;
                e.into_inner()
                    .map_err(|e| failed(n, format!("java.io.IOException: {e}")))?
            }
        };
        return Ok(Value::Bytes(out.into()));
    }
    let data: &[u8] = match arg(args, 0) {
        Value::Bytes(b) => b,
        Value::Null => return Err(failed(n, "java.lang.NullPointerException")),
        other => return Err(super::wrong(n, other, "a byte array")),
    };
    let limit = data.len().saturating_mul(MAX_RATIO);
    run.sh.can_allocate(data.len())?;
    let bomb = || {
        failed(
            n,
            format!("java.io.IOException: The file dimension exceeded maximum size in bytes, {limit},\nwhich is {MAX_RATIO} times the width of the original file.\nThe InputStream has been blocked because the file could be a compression bomb attack."),
        )
    };
    let read_all = |r: &mut dyn Read| -> Result<Vec<u8>> {
        let mut out = Vec::new();
        let got = r
            .take(limit as u64 + 1)
            .read_to_end(&mut out)
            .map_err(|e| failed(n, format!("java.io.IOException: {e}")))?;
        if got > limit {
            return Err(bomb());
        }
        Ok(out)
    };
    let raw = match algo {
        Algo::None => data.to_vec(),
        Algo::Gzip => read_all(&mut flate2::read::GzDecoder::new(data))?,
        Algo::Deflate => read_all(&mut flate2::read::ZlibDecoder::new(data))?,
        Algo::Bzip2 => read_all(&mut bzip2::read::BzDecoder::new(data))?,
        Algo::FramedSnappy => read_all(&mut snap::read::FrameDecoder::new(data))?,
        Algo::BlockLz4 => {
            // A raw block does not say its size: a buffer that grows, up to the limit.
            let mut size = data.len().saturating_mul(4).clamp(64, limit.max(64));
            loop {
                run.sh.tick()?;
                let mut out = vec![0u8; size];
                match lz4_flex::block::decompress_into(data, &mut out) {
                    Ok(len) => {
                        out.truncate(len);
                        break out;
                    }
                    Err(lz4_flex::block::DecompressError::OutputTooSmall { .. })
                        if size < limit =>
                    {
                        size = size.saturating_mul(4).min(limit);
                    }
                    Err(lz4_flex::block::DecompressError::OutputTooSmall { .. }) => {
                        return Err(bomb())
                    }
                    Err(other) => return Err(failed(n, format!("java.io.IOException: {other}"))),
                }
            }
        }
    };
    Ok(Value::from(decode(&raw, charset)))
}
