//! A static file server on loopback for the live-check benchmark (bench/run.py, `live-1000`):
//! `serve_dir DIR` prints `http://127.0.0.1:PORT` on its first line, then serves the files of
//! DIR (HTTP/1.1, keep-alive, a thread per connection, `application/xml` for `.xml`) until its
//! standard input closes. Only what a benchmark needs: GET, no ranges, no directory listings.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn main() {
    let dir = PathBuf::from(std::env::args().nth(1).expect("usage: serve_dir DIR"));
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
    println!("http://{}", listener.local_addr().unwrap());
    std::io::stdout().flush().unwrap();
    // Ends the process when the benchmark closes our standard input.
    std::thread::spawn(|| {
        let _ = std::io::stdin().read_to_end(&mut Vec::new());
        std::process::exit(0);
    });
    for stream in listener.incoming().flatten() {
        let dir = dir.clone();
        std::thread::spawn(move || {
            let _ = serve(stream, &dir);
        });
    }
}

fn serve(stream: TcpStream, dir: &Path) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut out = stream;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let path = line.split_whitespace().nth(1).unwrap_or("/").to_owned();
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h)? == 0 || h.trim_end().is_empty() {
                break;
            }
        }
        let name = path.trim_start_matches('/');
        let file = (!name.contains("..") && !name.is_empty())
            .then(|| std::fs::read(dir.join(name)).ok())
            .flatten();
        match file {
            Some(body) => {
                let kind = if name.ends_with(".gz") {
                    "application/gzip"
                } else {
                    "application/xml"
                };
                write!(
                    out,
                    "HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\r\n",
                    body.len()
                )?;
                out.write_all(&body)?;
            }
            None => out.write_all(
                b"HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 10\r\n\r\nnot found\n",
            )?,
        }
        out.flush()?;
    }
}
