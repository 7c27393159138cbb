//! The stdio transport: one JSON-RPC message per line on standard input, answers one per line
//! on standard output (nothing else is written there; logs go to standard error). A reader
//! thread frames messages, holding at most [`MAX_MESSAGE`] bytes of one; worker threads answer
//! them, so a long tool call does not hold up a `ping`. End of input ends the server once the
//! answers under way are written.

use std::io::{self, BufRead, Write};
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Mutex};

use super::Host;
use super::{code, error, MAX_MESSAGE};

/// Threads answering messages.
const WORKERS: usize = 4;

/// A framed line.
enum Frame {
    /// A message (without its newline).
    Message(Vec<u8>),
    /// A line longer than the limit, of this many bytes, skipped.
    TooLong(usize),
}

/// The next line of `r`, holding at most [`MAX_MESSAGE`] bytes of it; None at end of input.
fn next_frame(r: &mut impl BufRead) -> io::Result<Option<Frame>> {
    let (mut buf, mut len) = (Vec::new(), 0usize);
    loop {
        let avail = match r.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok((len > 0).then(|| frame(buf, len)));
        }
        let newline = avail.iter().position(|&b| b == b'\n');
        let take = newline.unwrap_or(avail.len());
        if len + take <= MAX_MESSAGE {
            buf.extend_from_slice(&avail[..take]);
        } else {
            buf = Vec::new();
        }
        len += take;
        r.consume(take + usize::from(newline.is_some()));
        if newline.is_some() {
            return Ok(Some(frame(buf, len)));
        }
    }
}

fn frame(mut buf: Vec<u8>, len: usize) -> Frame {
    if len > MAX_MESSAGE {
        return Frame::TooLong(len);
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Frame::Message(buf)
}

/// Writes one answer as a line.
fn send(out: &Mutex<impl Write>, v: &serde_json::Value) {
    let mut line = serde_json::to_vec(v).unwrap_or_default();
    line.push(b'\n');
    let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
    // A reader that went away ends the session at end of input; nothing to report to.
    let _ = out.write_all(&line).and_then(|()| out.flush());
}

/// Serves `app`'s MCP server on `input` and `output` until `input` ends.
pub fn serve(
    app: Arc<impl Host + Send + Sync + 'static>,
    input: impl BufRead,
    output: impl Write + Send + 'static,
) -> io::Result<()> {
    let mut input = input;
    let out = Arc::new(Mutex::new(output));
    // Bounded: a client sending faster than answers are made waits instead of queueing.
    let (tx, rx) = sync_channel::<Vec<u8>>(WORKERS * 2);
    let rx = Arc::new(Mutex::new(rx));
    let workers: Vec<_> = (0..WORKERS)
        .map(|_| {
            let (rx, out, app) = (rx.clone(), out.clone(), app.clone());
            std::thread::spawn(move || loop {
                let msg = rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                let Ok(msg) = msg else { break };
                if let Some(answer) = app.mcp().answer(&*app, &msg) {
                    send(&out, &answer);
                }
            })
        })
        .collect();
    let read = loop {
        match next_frame(&mut input) {
            Ok(None) => break Ok(()),
            Err(e) => break Err(e),
            Ok(Some(Frame::TooLong(n))) => send(
                &out,
                &error(
                    serde_json::Value::Null,
                    code::INVALID_REQUEST,
                    format!("message of {n} bytes refused: the limit is {MAX_MESSAGE}"),
                ),
            ),
            Ok(Some(Frame::Message(m))) if m.iter().all(u8::is_ascii_whitespace) => {}
            Ok(Some(Frame::Message(m))) => {
                if tx.send(m).is_err() {
                    break Ok(());
                }
            }
        }
    };
    drop(tx);
    for w in workers {
        let _ = w.join();
    }
    read
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_frames_hold_at_most_the_limit() {
        let mut data = b"{\"a\":1}\r\n\n".to_vec();
        data.extend(std::iter::repeat_n(b'x', MAX_MESSAGE + 5));
        data.extend(b"\n{}");
        let mut r = io::BufReader::with_capacity(1000, &data[..]);
        let mut frames = Vec::new();
        while let Some(f) = next_frame(&mut r).unwrap() {
            frames.push(match f {
                Frame::Message(m) => String::from_utf8(m).unwrap(),
                Frame::TooLong(n) => format!("too long {n}"),
            });
        }
        assert_eq!(
            frames,
            [
                "{\"a\":1}",
                "",
                &format!("too long {}", MAX_MESSAGE + 5),
                "{}"
            ]
        );
    }
}
