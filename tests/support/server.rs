//! A small HTTP/1.1 server on loopback for the live-check tests: fixed routes, keep-alive,
//! slow answers, large streamed bodies, and a log of every request (its path, when it arrived,
//! how many requests and connections were open at that moment) to measure politeness from.
//! It stops when dropped: the listener is woken and closed, and every connection thread ends on
//! its own (read timeout) or when its client goes.
#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// One answer of a route.
#[derive(Clone, Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Body,
    /// Wait this long before answering.
    pub delay: Duration,
    /// Gzip the body this many times (after `{base}` is filled in).
    pub gzip: usize,
}

#[derive(Clone, Debug)]
pub enum Body {
    Bytes(Vec<u8>),
    /// This many `a` bytes, streamed in chunks (a body larger than memory should hold).
    Filler(u64),
}

impl Reply {
    pub fn ok(content_type: &str, body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status: 200,
            headers: vec![("Content-Type".into(), content_type.into())],
            body: Body::Bytes(body.into()),
            delay: Duration::ZERO,
            gzip: 0,
        }
    }

    pub fn xml(body: impl Into<Vec<u8>>) -> Reply {
        Reply::ok("application/xml", body)
    }

    pub fn status(status: u16) -> Reply {
        Reply {
            status,
            headers: vec![("Content-Type".into(), "text/plain".into())],
            body: Body::Bytes(format!("status {status}\n").into_bytes()),
            delay: Duration::ZERO,
            gzip: 0,
        }
    }

    pub fn redirect(status: u16, location: &str) -> Reply {
        Reply::status(status).header("Location", location)
    }

    pub fn header(mut self, name: &str, value: &str) -> Reply {
        self.headers.push((name.into(), value.into()));
        self
    }

    pub fn gzipped(mut self, times: usize) -> Reply {
        self.gzip = times;
        self
    }

    pub fn delayed(mut self, delay: Duration) -> Reply {
        self.delay = delay;
        self
    }
}

/// One request as the server saw it.
#[derive(Clone, Debug)]
pub struct Logged {
    pub path: String,
    pub at: Instant,
    pub user_agent: String,
    pub headers: Vec<(String, String)>,
    /// Requests being answered at the moment it arrived (itself included).
    pub in_flight: usize,
    /// Connections open at the moment it arrived.
    pub connections: usize,
}

/// Routes: a path answers its replies in turn (the last one again and again).
type Routes = HashMap<String, Vec<Reply>>;

pub struct Server {
    pub addr: SocketAddr,
    log: Arc<Mutex<Vec<Logged>>>,
    stop: Arc<AtomicBool>,
    accept: Option<thread::JoinHandle<()>>,
}

struct Shared {
    routes: Mutex<Routes>,
    served: Mutex<HashMap<String, usize>>,
    log: Arc<Mutex<Vec<Logged>>>,
    in_flight: AtomicUsize,
    connections: AtomicUsize,
}

impl Server {
    /// Starts a server on 127.0.0.1 with `routes` (`{base}` in a body or header is replaced by
    /// `http://127.0.0.1:PORT`).
    pub fn start(routes: Vec<(&str, Vec<Reply>)>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let addr = listener.local_addr().unwrap();
        let base = format!("http://{addr}");
        let fill = |s: &str| s.replace("{base}", &base);
        let routes: Routes = routes
            .into_iter()
            .map(|(path, replies)| {
                let replies = replies
                    .into_iter()
                    .map(|mut r| {
                        if let Body::Bytes(b) = &r.body {
                            if let Ok(text) = std::str::from_utf8(b) {
                                r.body = Body::Bytes(fill(text).into_bytes());
                            }
                        }
                        if let Body::Bytes(b) = &mut r.body {
                            for _ in 0..r.gzip {
                                *b = gzip(b);
                            }
                        }
                        for h in &mut r.headers {
                            h.1 = fill(&h.1);
                        }
                        r
                    })
                    .collect();
                (path.to_string(), replies)
            })
            .collect();
        let log = Arc::new(Mutex::new(Vec::new()));
        let shared = Arc::new(Shared {
            routes: Mutex::new(routes),
            served: Mutex::new(HashMap::new()),
            log: log.clone(),
            in_flight: AtomicUsize::new(0),
            connections: AtomicUsize::new(0),
        });
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let accept = thread::spawn(move || {
            for stream in listener.incoming() {
                if stopped.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let shared = shared.clone();
                shared.connections.fetch_add(1, Ordering::SeqCst);
                thread::spawn(move || {
                    let _ = serve(&stream, &shared);
                    shared.connections.fetch_sub(1, Ordering::SeqCst);
                });
            }
        });
        Server {
            addr,
            log,
            stop,
            accept: Some(accept),
        }
    }

    /// `http://127.0.0.1:PORT` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub fn log(&self) -> Vec<Logged> {
        self.log.lock().unwrap().clone()
    }

    /// The requests for `path`.
    pub fn hits(&self, path: &str) -> Vec<Logged> {
        self.log().into_iter().filter(|l| l.path == path).collect()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr);
        if let Some(t) = self.accept.take() {
            let _ = t.join();
        }
    }
}

/// Answers the requests of one connection until it closes.
fn serve(stream: &TcpStream, shared: &Shared) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(15)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut out = stream.try_clone()?;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let path = line.split_whitespace().nth(1).unwrap_or("/").to_string();
        let mut headers = Vec::new();
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h)? == 0 {
                return Ok(());
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
            }
        }
        let in_flight = shared.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        let user_agent = headers
            .iter()
            .find(|(k, _)| k == "user-agent")
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        shared.log.lock().unwrap().push(Logged {
            path: path.clone(),
            at: Instant::now(),
            user_agent,
            headers,
            in_flight,
            connections: shared.connections.load(Ordering::SeqCst),
        });
        let reply = {
            let routes = shared.routes.lock().unwrap();
            let mut served = shared.served.lock().unwrap();
            let n = served.entry(path.clone()).or_insert(0);
            let reply = routes.get(&path).map(|r| r[(*n).min(r.len() - 1)].clone());
            *n += 1;
            reply.unwrap_or_else(|| Reply::status(404))
        };
        let result = answer(&mut out, &reply);
        shared.in_flight.fetch_sub(1, Ordering::SeqCst);
        result?;
    }
}

fn answer(out: &mut TcpStream, reply: &Reply) -> std::io::Result<()> {
    thread::sleep(reply.delay);
    let len = match &reply.body {
        Body::Bytes(b) => b.len() as u64,
        Body::Filler(n) => *n,
    };
    let mut head = format!(
        "HTTP/1.1 {} Status\r\nContent-Length: {len}\r\n",
        reply.status
    );
    for (k, v) in &reply.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    out.write_all(head.as_bytes())?;
    match &reply.body {
        Body::Bytes(b) => out.write_all(b)?,
        Body::Filler(n) => {
            let chunk = vec![b'a'; 1 << 16];
            let mut left = *n;
            while left > 0 {
                let k = left.min(chunk.len() as u64) as usize;
                out.write_all(&chunk[..k])?;
                left -= k as u64;
            }
        }
    }
    out.flush()
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}
