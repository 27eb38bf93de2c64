//! A minimal blocking Bolt client: it drives the server in tests and benchmarks, speaks any
//! protocol version explicitly (the official drivers pick their own), and carries the `neo4j`
//! backend to a live database over TCP or TLS (any [`Stream`]).

use super::packstream::{decode_all, Ps};
use super::server::{read_message, write_message};
use std::io::{self, BufReader, Read, Write};
use std::net::TcpStream;

/// A byte stream a client talks over: a TCP stream, or TLS over one.
pub trait Stream: Read + Write + Send {}
impl<T: Read + Write + Send> Stream for T {}

/// One connection.
pub struct Client {
    io: BufReader<Box<dyn Stream>>,
    /// The version the server chose, `(major, minor)`.
    pub version: (u8, u8),
}

/// A server reply: SUCCESS (0x70), RECORD (0x71), IGNORED (0x7E) or FAILURE (0x7F), with its
/// fields.
pub type Reply = (u8, Vec<Ps>);

/// A completed query: the RUN metadata, the records, the final summary metadata.
pub type RunResult = (Ps, Vec<Vec<Ps>>, Ps);

impl Client {
    /// Connects and proposes `versions` (`(major, minor, range)`, at most four).
    pub fn connect(addr: &str, versions: &[(u8, u8, u8)]) -> io::Result<Client> {
        let s = TcpStream::connect(addr)?;
        s.set_nodelay(true)?;
        Client::over(Box::new(s), versions)
    }

    /// Runs the handshake over an open stream (TCP, TLS) and proposes `versions`.
    pub fn over(stream: Box<dyn Stream>, versions: &[(u8, u8, u8)]) -> io::Result<Client> {
        let mut hs = vec![0x60, 0x60, 0xB0, 0x17];
        for i in 0..4 {
            match versions.get(i) {
                Some(&(major, minor, range)) => hs.extend_from_slice(&[0, range, minor, major]),
                None => hs.extend_from_slice(&[0, 0, 0, 0]),
            }
        }
        let mut io = BufReader::new(stream);
        io.get_mut().write_all(&hs)?;
        io.get_mut().flush()?;
        let mut v = [0u8; 4];
        io.read_exact(&mut v)?;
        if v == [0; 4] {
            return Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "no common Bolt version",
            ));
        }
        if v == *b"HTTP" {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "the server answered HTTP: this is Neo4j's HTTP port, not its Bolt port (7687)",
            ));
        }
        Ok(Client {
            io,
            version: (v[3], v[2]),
        })
    }

    /// Sends one message (a structure with `tag` and `fields`).
    pub fn send(&mut self, tag: u8, fields: Vec<Ps>) -> io::Result<()> {
        self.send_all(vec![(tag, fields)])
    }

    /// Sends several messages in one write (pipelining, as drivers send RUN and PULL).
    pub fn send_all(&mut self, messages: Vec<(u8, Vec<Ps>)>) -> io::Result<()> {
        let mut out = Vec::new();
        for (tag, fields) in messages {
            write_message(&mut out, &Ps::Struct(tag, fields));
        }
        let w = self.io.get_mut();
        w.write_all(&out)?;
        w.flush()
    }

    /// Receives one reply.
    pub fn recv(&mut self) -> io::Result<Reply> {
        let msg = read_message(&mut self.io, usize::MAX)?.ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the server closed the connection",
            )
        })?;
        match decode_all(&msg) {
            Ok(Ps::Struct(tag, fields)) => Ok((tag, fields)),
            Ok(other) => Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("reply is not a structure: {other:?}"),
            )),
            Err(e) => Err(io::Error::new(io::ErrorKind::InvalidData, e.to_string())),
        }
    }

    /// Sends a message and receives one reply.
    pub fn request(&mut self, tag: u8, fields: Vec<Ps>) -> io::Result<Reply> {
        self.send(tag, fields)?;
        self.recv()
    }

    /// HELLO (with the credentials before 5.1), then LOGON from 5.1; the metadata of the
    /// HELLO reply. An empty `user` logs in with the `none` scheme.
    pub fn login(&mut self, user: &str, password: &str) -> io::Result<Ps> {
        let auth = if user.is_empty() {
            vec![("scheme", Ps::from("none"))]
        } else {
            vec![
                ("scheme", Ps::from("basic")),
                ("principal", Ps::from(user)),
                ("credentials", Ps::from(password)),
            ]
        };
        let mut hello = vec![(
            "user_agent",
            Ps::from(concat!("grape/", env!("CARGO_PKG_VERSION"))),
        )];
        if self.version >= (5, 3) {
            // Required from Bolt 5.3: who is connecting.
            hello.push((
                "bolt_agent",
                Ps::map([
                    (
                        "product",
                        Ps::from(concat!("grape/", env!("CARGO_PKG_VERSION"))),
                    ),
                    (
                        "platform",
                        Ps::from(format!(
                            "{}; {}",
                            std::env::consts::OS,
                            std::env::consts::ARCH
                        )),
                    ),
                    ("language", Ps::from("Rust")),
                ]),
            ));
        }
        if self.version < (5, 1) {
            hello.extend(auth.clone());
        }
        let (tag, f) = self.request(0x01, vec![Ps::map(hello)])?;
        if tag != 0x70 {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!("HELLO failed: {f:?}"),
            ));
        }
        if self.version >= (5, 1) {
            let (t2, f2) = self.request(0x6A, vec![Ps::map(auth)])?;
            if t2 != 0x70 {
                return Err(io::Error::new(
                    io::ErrorKind::PermissionDenied,
                    format!("LOGON failed: {f2:?}"),
                ));
            }
        }
        Ok(f.into_iter().next().unwrap_or(Ps::Null))
    }

    /// RUN then PULL all, pipelined: (RUN metadata, records, final metadata), or the FAILURE
    /// metadata.
    pub fn run(&mut self, query: &str, params: Ps) -> io::Result<Result<RunResult, Ps>> {
        self.run_with(query, params, Ps::map::<&str>([]))
    }

    /// [`Client::run`] with RUN's extra metadata (`db`, `tx_timeout`, `mode`, …).
    pub fn run_with(
        &mut self,
        query: &str,
        params: Ps,
        extra: Ps,
    ) -> io::Result<Result<RunResult, Ps>> {
        self.send_all(vec![
            (0x10, vec![Ps::from(query), params, extra]),
            (0x3F, vec![Ps::map([("n", Ps::Int(-1))])]),
        ])?;
        let (tag, f) = self.recv()?;
        let first = f.into_iter().next().unwrap_or(Ps::Null);
        if tag != 0x70 {
            // The PULL is ignored.
            let _ = self.recv()?;
            return Ok(Err(first));
        }
        let mut rows = Vec::new();
        loop {
            let (tag, f) = self.recv()?;
            match tag {
                0x71 => match f.into_iter().next() {
                    Some(Ps::List(r)) => rows.push(r),
                    _ => rows.push(Vec::new()),
                },
                0x70 => return Ok(Ok((first, rows, f.into_iter().next().unwrap_or(Ps::Null)))),
                _ => return Ok(Err(f.into_iter().next().unwrap_or(Ps::Null))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    /// What a HELLO carries, by version: credentials before 5.1 (then LOGON), `bolt_agent`
    /// from 5.3.
    #[test]
    fn hello_fields_follow_the_version() {
        for (minor, agent, auth_in_hello) in
            [(4u8, true, false), (2, false, false), (0, false, true)]
        {
            let l = TcpListener::bind("127.0.0.1:0").unwrap();
            let addr = l.local_addr().unwrap().to_string();
            let server = std::thread::spawn(move || {
                let (mut s, _) = l.accept().unwrap();
                let mut hs = [0u8; 20];
                s.read_exact(&mut hs).unwrap();
                s.write_all(&[0, 0, minor, 5]).unwrap();
                let mut r = BufReader::new(s.try_clone().unwrap());
                let mut seen = Vec::new();
                let n = if minor >= 1 { 2 } else { 1 };
                for _ in 0..n {
                    let m = read_message(&mut r, usize::MAX).unwrap().unwrap();
                    seen.push(decode_all(&m).unwrap());
                    let mut out = Vec::new();
                    write_message(&mut out, &Ps::Struct(0x70, vec![Ps::map::<&str>([])]));
                    s.write_all(&out).unwrap();
                }
                seen
            });
            let mut c = Client::connect(&addr, &[(5, 4, 4)]).unwrap();
            assert_eq!(c.version, (5, minor));
            c.login("neo4j", "pw").unwrap();
            let seen = server.join().unwrap();
            let Ps::Struct(0x01, f) = &seen[0] else {
                panic!("{seen:?}")
            };
            assert_eq!(f[0].get("bolt_agent").is_some(), agent, "5.{minor}");
            assert_eq!(
                f[0].get("credentials").is_some(),
                auth_in_hello,
                "5.{minor}"
            );
            assert!(f[0]
                .get("user_agent")
                .and_then(Ps::as_str)
                .is_some_and(|u| u.starts_with("grape/")));
            if minor >= 1 {
                let Ps::Struct(0x6A, l) = &seen[1] else {
                    panic!("{seen:?}")
                };
                assert_eq!(l[0].get("credentials").and_then(Ps::as_str), Some("pw"));
            }
        }
    }
}
