//! `bogglemax report`: the page of a finished 3x3 proof and of a half-broken run, read as
//! text and rendered in a real headless Chromium (Debian's `chromium`), which is driven over
//! the DevTools protocol to read the DOM and to see every request the page makes.
//!
//! Without Chromium the browser halves say SKIPPED with the reason and pass; with
//! `BOGGLEMAX_REQUIRE_BROWSER=1` (as `.ci/run` sets after installing it) they fail instead.

mod common;

use common::{bin, fails_with, hold_lock, small_wordlist, stdout_ok};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::{OnceLock, mpsc};
use std::time::Duration;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// Longer than any of these steps takes on a loaded machine; only a hang reaches it.
const HANG_LIMIT: Duration = Duration::from_secs(300);

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// A finished 3x3 ENABLE2K proof at S = 540 (three boards, deslatper 545 first), made once
/// for every test of this file (under cargo's temporary folder for integration tests), with
/// merge's best line.
fn finished_run() -> &'static (PathBuf, String) {
    static RUN: OnceLock<(PathBuf, String)> = OnceLock::new();
    RUN.get_or_init(|| {
        let run = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-proof-3x3");
        if run.exists() {
            std::fs::remove_dir_all(&run).expect("remove an earlier test's run");
        }
        stdout_ok(&[
            "plan",
            "--size",
            "3x3",
            "--partition",
            "aeiosuy bcdfghjklmnpqrtvwxz",
            "--score",
            "540",
            "--shards",
            "4",
            "--out",
            s(&run),
        ]);
        stdout_ok(&["break", s(&run), "--all", "--threads", "2", "--quiet"]);
        let merged = stdout_ok(&["merge", s(&run), "--quiet"]);
        let best = merged
            .lines()
            .find_map(|l| l.strip_prefix("best: "))
            .expect("merge names the best board")
            .to_string();
        (run, best)
    })
}

/// The tooltip of shard `k` on a page: `shard K: done/classes, ..., STATE...`.
fn shard_title(html: &str, k: u32) -> &str {
    let start = html
        .find(&format!("title=\"shard {k}: "))
        .unwrap_or_else(|| panic!("no bar for shard {k}"));
    let rest = &html[start + 7..];
    &rest[..rest.find('"').expect("closing quote")]
}

/// Every file of a run directory with its bytes and modification time.
fn files_of(dir: &Path) -> BTreeMap<PathBuf, (Vec<u8>, std::time::SystemTime)> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read_dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let md = std::fs::metadata(&p).expect("metadata");
                let bytes = std::fs::read(&p).expect("read");
                out.insert(p, (bytes, md.modified().expect("mtime")));
            }
        }
    }
    out
}

/// The page says what merge says, draws the best board as its nine dice, fetches nothing,
/// and leaves every file of the run as it was.
#[test]
fn report_of_a_finished_proof() {
    let (run, best) = finished_run();
    assert_eq!(best, "deslatper 545", "the published 3x3 best");
    let out_dir = tempfile::tempdir().expect("tempdir");
    let page = out_dir.path().join("page.html");
    let before = files_of(run);
    let printed = stdout_ok(&["report", s(run), "-o", s(&page)]);
    assert_eq!(printed.trim(), s(&page), "prints the page's path");
    assert_eq!(files_of(run), before, "the run is left as it was");
    let html = std::fs::read_to_string(&page).expect("page");
    assert!(
        html.contains(r#"id="state">complete<"#),
        "no complete state on the page"
    );
    assert!(html.contains(r#"data-board="deslatper""#));
    // Self-contained: no URL the browser could fetch, and a policy that forbids fetching.
    for needle in ["http://", "https://", "src=", "url(", "<script", "<link"] {
        assert!(!html.contains(needle), "the page contains {needle:?}");
    }
    assert!(html.contains("default-src 'none'"));
    // The default place is RUN/report.html, and a later report replaces an earlier one.
    let default = run.join("report.html");
    for _ in 0..2 {
        let printed = stdout_ok(&["report", s(run)]);
        assert_eq!(printed.trim(), s(&default));
    }
    std::fs::remove_file(&default).expect("rm");

    if let Some(mut browser) = Browser::launch() {
        let dom = browser.render(&page);
        assert_eq!(dom["state"], "complete");
        let (board, score) = best.split_once(' ').expect("board score");
        let first = &dom["boards"][0];
        assert_eq!(first["board"], board);
        assert_eq!(first["cells"], 9, "a 3x3 board is nine cells");
        // Rows as rows: deslatper is d e s / l a t / p e r by columns.
        assert_eq!(first["text"], "DLPEAESTR");
        assert_eq!(dom["scores"][0], score, "the score merge reports");
        assert!(
            dom["summary"].as_str().is_some_and(
                |t| t.contains(&format!("best: {best}")) && t.contains("proof: complete")
            ),
            "merge's summary on the page: {}",
            dom["summary"]
        );
        assert!(
            dom["agreement"]
                .as_str()
                .is_some_and(|t| t.contains("Equal to")),
            "the results equal the known ones: {}",
            dom["agreement"]
        );
        assert_eq!(dom["resources"], 0, "the page loaded no resource");
        browser.assert_no_request_but(&page);
    }
}

/// A run with shards finished, one failed (its worker died), one running (a lock is held),
/// one unreadable (its journal is not one) and the rest pending: the page says so, with a
/// time left.
#[test]
#[cfg_attr(
    not(feature = "failpoints"),
    ignore = "needs the crash points: make test, or cargo test --features failpoints"
)]
fn report_of_a_half_broken_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    // ENABLE2K's words of these letters: 30 boards at 440 or more, a second or two of work.
    let words = small_wordlist(dir.path(), "aeirstdnl");
    let run = dir.path().join("half");
    stdout_ok(&[
        "plan",
        "--size",
        "3x3",
        "--partition",
        "aeiosuy bcdfghjklmnpqrtvwxz",
        "--score",
        "440",
        "--shards",
        "8",
        "--wordlist",
        s(&words),
        "--out",
        s(&run),
    ]);
    for k in ["0", "1", "2"] {
        stdout_ok(&["break", s(&run), "--shard", k, "--threads", "1", "--quiet"]);
    }
    // Shard 3's worker dies after journaling two classes.
    common::crash(
        &[
            "break",
            s(&run),
            "--shard",
            "3",
            "--threads",
            "1",
            "--quiet",
        ],
        "class-journaled:2",
    );
    // Shard 4 is held by a worker (this process, as a worker would hold it).
    let _held = hold_lock(&run.join("shards/00004.journal"));
    // Shard 7's journal is not one: the page says so, and still shows the rest.
    std::fs::write(run.join("shards/00007.journal"), b"not a journal at all").expect("write");

    let page = dir.path().join("page.html");
    // --active-within 0: a started shard nobody locks is failed at once, not running.
    let made = bin()
        .args(["report", s(&run), "--active-within", "0", "-o", s(&page)])
        .output()
        .expect("report runs");
    assert!(made.status.success(), "the page is written all the same");
    let said = String::from_utf8_lossy(&made.stderr);
    assert!(
        said.lines()
            .any(|l| l.starts_with("report: warning: shard 7 unreadable (")
                && l.contains("bad magic")),
        "the damaged shard is named where the caller looks: {said}"
    );
    let html = std::fs::read_to_string(&page).expect("page");
    assert!(html.contains(">in progress<"));
    for (shard, state) in [
        (0, "complete"),
        (3, "failed"),
        (4, "running"),
        (5, "pending"),
    ] {
        let title = shard_title(&html, shard);
        assert!(
            title.contains(&format!(", {state}")),
            "shard {shard} {state}: {title}"
        );
    }
    assert!(shard_title(&html, 4).contains("lock held on this machine"));
    assert!(
        html.contains("Shard 7 cannot be read: ") && html.contains("bad magic"),
        "the unreadable journal is named"
    );
    assert!(
        shard_title(&html, 3).contains(": 2/"),
        "two classes journaled before it died"
    );
    assert!(html.contains("1 running, "), "one running shard");
    assert!(html.contains("1 failed"), "one failed shard");

    if let Some(mut browser) = Browser::launch() {
        let dom = browser.render(&page);
        assert_eq!(dom["state"], "in progress");
        let line = dom["stateLine"].as_str().unwrap_or_default().to_string();
        assert!(line.contains("2 pending"), "state line: {line}");
        assert!(line.contains("1 unreadable"), "state line: {line}");
        assert!(line.contains("1 failed"), "state line: {line}");
        let remaining = dom["remaining"].as_str().unwrap_or_default().to_string();
        assert!(
            remaining.ends_with(" s") || remaining.ends_with(" ms") || remaining.ends_with(" min"),
            "a remaining-time figure: {remaining:?}"
        );
        assert_eq!(dom["resources"], 0, "the page loaded no resource");
        browser.assert_no_request_but(&page);
    }
}

#[test]
fn report_refuses_what_it_must_not_touch() {
    let (run, _) = finished_run();
    let dir = tempfile::tempdir().expect("tempdir");
    let other = dir.path().join("notes.html");
    std::fs::write(&other, "my notes").expect("write");
    fails_with(
        &["report", s(run), "-o", s(&other)],
        "exists and is not a bogglemax report",
    );
    assert_eq!(std::fs::read_to_string(&other).expect("read"), "my notes");
    fails_with(
        &["report", s(&dir.path().join("nowhere"))],
        "no such run directory",
    );
}

/// The browser check itself: a page that does fetch something is caught (so the checks above
/// can fail).
#[test]
fn the_browser_check_sees_a_fetch() {
    let Some(mut browser) = Browser::launch() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let page = dir.path().join("fetching.html");
    // Port 9 (discard) on loopback: refused at once, but requested all the same.
    std::fs::write(
        &page,
        r#"<!DOCTYPE html><html><body><span id="state">x</span><p class="state"></p>
        <img src="http://127.0.0.1:9/pixel.png"></body></html>"#,
    )
    .expect("write");
    browser.render(&page);
    let requests = browser.requests();
    assert!(
        requests
            .iter()
            .any(|u| u.starts_with("http://127.0.0.1:9/")),
        "the image request was not seen: {requests:?}"
    );
}

/// Headless Chromium driven over the DevTools protocol (a WebSocket), for one page.
struct Browser {
    child: Child,
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    session: String,
    /// Every event of the page's session, in order.
    events: Vec<Value>,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Starts Chromium, or says SKIPPED (and returns `None`) where there is none.
    fn launch() -> Option<Browser> {
        let exe = std::env::var_os("CHROMIUM")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
        if !exe.is_file() {
            let why = format!("{} not found (apt-get install chromium)", exe.display());
            assert!(
                std::env::var_os("BOGGLEMAX_REQUIRE_BROWSER").is_none(),
                "BOGGLEMAX_REQUIRE_BROWSER is set, but {why}"
            );
            eprintln!("browser check SKIPPED: {why}");
            return None;
        }
        let profile = tempfile::tempdir().expect("tempdir");
        // The flags that keep Chromium from reaching for the network on its own.
        let mut child = std::process::Command::new(&exe)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                // A container's /dev/shm can be too small for Chromium's shared memory.
                "--disable-dev-shm-usage",
                "--remote-debugging-port=0",
                &format!("--user-data-dir={}", profile.path().display()),
                "about:blank",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("chromium starts");
        let stderr = child.stderr.take().expect("piped");
        let (tx, rx) = mpsc::channel();
        // Every line goes to the channel: the address, or what Chromium said before it died.
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut said = Vec::new();
        let url = loop {
            match rx.recv_timeout(HANG_LIMIT) {
                Ok(line) => match line.split("DevTools listening on ").nth(1) {
                    Some(url) => break url.trim().to_string(),
                    None => said.push(line),
                },
                Err(e) => panic!(
                    "chromium printed no DevTools address ({e}); it said:\n{}",
                    said.join("\n")
                ),
            }
        };
        let (ws, _) = tungstenite::connect(url.as_str()).expect("DevTools WebSocket");
        if let MaybeTlsStream::Plain(tcp) = ws.get_ref() {
            tcp.set_read_timeout(Some(HANG_LIMIT)).expect("timeout");
        }
        let mut b = Browser {
            child,
            ws,
            next_id: 0,
            session: String::new(),
            events: Vec::new(),
            _profile: profile,
        };
        let target = b.call("Target.createTarget", json!({ "url": "about:blank" }));
        let target_id = target["targetId"].as_str().expect("targetId").to_string();
        let attached = b.call(
            "Target.attachToTarget",
            json!({ "targetId": target_id, "flatten": true }),
        );
        b.session = attached["sessionId"]
            .as_str()
            .expect("sessionId")
            .to_string();
        b.call("Network.enable", json!({}));
        b.call("Page.enable", json!({}));
        Some(b)
    }

    /// Sends one command (on the page's session once there is one) and returns its result,
    /// keeping the session's events that arrive meanwhile.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({ "id": id, "method": method, "params": params });
        if !self.session.is_empty() {
            msg["sessionId"] = json!(self.session);
        }
        self.ws
            .send(Message::Text(msg.to_string().into()))
            .expect("send");
        loop {
            let v = self.next_message();
            if v["id"] == id {
                assert!(v.get("error").is_none(), "{method}: {}", v["error"]);
                return v["result"].clone();
            }
        }
    }

    fn next_message(&mut self) -> Value {
        loop {
            match self.ws.read().expect("DevTools message") {
                Message::Text(t) => {
                    let v: Value = serde_json::from_str(&t).expect("JSON");
                    if v.get("method").is_some() && v["sessionId"] == json!(self.session) {
                        self.events.push(v.clone());
                    }
                    return v;
                }
                _ => continue,
            }
        }
    }

    /// Loads the page, waits for its load event, and reads the DOM.
    fn render(&mut self, page: &Path) -> Value {
        let url = format!("file://{}", page.display());
        self.events.clear();
        self.call("Page.navigate", json!({ "url": url }));
        // The load event that counts is the first after the main frame has navigated to the
        // page (not a late one of about:blank).
        let loaded = |events: &[Value]| {
            let navigated = events.iter().position(|e| {
                e["method"] == "Page.frameNavigated" && e["params"]["frame"]["url"] == url
            });
            navigated.is_some_and(|i| {
                events[i..]
                    .iter()
                    .any(|e| e["method"] == "Page.loadEventFired")
            })
        };
        while !loaded(&self.events) {
            self.next_message();
        }
        let js = r#"JSON.stringify({
            state: document.getElementById('state').textContent,
            stateLine: document.querySelector('.state').textContent,
            boards: [...document.querySelectorAll('.result .board')].map(b => ({
                board: b.dataset.board,
                cells: b.querySelectorAll('.cell').length,
                text: [...b.querySelectorAll('.cell')].map(c => c.textContent).join(''),
            })),
            scores: [...document.querySelectorAll('.result .points')].map(p => p.textContent),
            summary: document.getElementById('summary')?.textContent ?? null,
            agreement: document.querySelector('.agree')?.textContent ?? null,
            remaining: document.querySelector('#remaining .v')?.textContent ?? null,
            resources: performance.getEntriesByType('resource').length,
        })"#;
        let r = self.call(
            "Runtime.evaluate",
            json!({ "expression": js, "returnByValue": true }),
        );
        serde_json::from_str(r["result"]["value"].as_str().expect("a string")).expect("JSON")
    }

    /// Every URL the page's session requested.
    fn requests(&self) -> Vec<&str> {
        self.events
            .iter()
            .filter(|e| e["method"] == "Network.requestWillBeSent")
            .filter_map(|e| e["params"]["request"]["url"].as_str())
            .collect()
    }

    /// Asserts that the page's session asked for nothing but the page itself.
    fn assert_no_request_but(&self, page: &Path) {
        let own = format!("file://{}", page.display());
        let requests = self.requests();
        assert!(
            requests.iter().all(|u| *u == own),
            "requests other than the page: {requests:?}"
        );
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
