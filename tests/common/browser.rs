//! The results website in a real browser: Debian's chromium, headless, opens a page from disk
//! (`file://`) and gives back the page as it built it; what it logged to its console; the text
//! and tables of a page; and Debian's HTML checker `tidy` over every page of a site (both
//! installed by scripts/test.sh: without them the tests fail, never skip).

use std::path::{Path, PathBuf};
use std::process::Command;

use super::scratch::tmp;

/// The page as the browser built it (`--dump-dom`), and what the browser logged: chromium
/// headless, no sandbox (tests may run as root). (`--dump-dom` needs the browser's own
/// scripting; the pages have none, which `every_page_is_valid_html5...` checks.)
pub fn browse(page: &Path) -> (String, String) {
    let profile = tmp("chromium-profile");
    let o = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-extensions",
            "--enable-logging=stderr",
            "--log-level=0",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium (Debian's, installed by scripts/test.sh)");
    assert!(o.status.success(), "chromium failed on {}", page.display());
    (
        String::from_utf8_lossy(&o.stdout).to_string(),
        String::from_utf8_lossy(&o.stderr).to_string(),
    )
}

/// A page opened in the browser, with no console message (an error of any kind is logged as
/// `CONSOLE`; missing files are what the link check of every page looks for).
pub fn open(page: &Path) -> String {
    let (dom, log) = browse(page);
    let console: Vec<&str> = log.lines().filter(|l| l.contains("CONSOLE")).collect();
    assert!(
        console.is_empty(),
        "{}: the browser's console says:\n{}",
        page.display(),
        console.join("\n")
    );
    assert!(
        dom.contains("</html>"),
        "{}: no page:\n{dom}",
        page.display()
    );
    dom
}

/// Text with its tags removed (a `<br>` a space) and entities decoded, spaces collapsed.
pub fn text(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    // (a line break separates words)
    for c in html.replace("<br>", " ").chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    let out = out
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&");
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The rows of the first table whose opening tag contains `marker`: each row's cells as text.
pub fn table(html: &str, marker: &str) -> Vec<Vec<String>> {
    let start = html
        .find(&format!("<table {marker}"))
        .unwrap_or_else(|| panic!("no table {marker}"));
    rows(&html[start..])
}

/// The rows of the first table of `html` (from its first `<tbody`): each row's cells as text.
pub fn rows(html: &str) -> Vec<Vec<String>> {
    let body = &html[html.find("<table").expect("a table")..];
    let body = &body[..body.find("</table>").unwrap()];
    let body = &body[body.find("<tbody").unwrap()..];
    body.split("<tr")
        .skip(1)
        .map(|row| {
            row.split("<t")
                .skip(1)
                .filter(|c| c.starts_with('d') || c.starts_with('h'))
                .map(|c| text(&format!("<t{c}")))
                .collect()
        })
        .collect()
}

/// Every `href` of a page.
pub fn links(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .map(|s| s[..s.find('"').unwrap()].replace("&amp;", "&"))
        .collect()
}

/// A number as the site prints it, against the unrounded value of a table.
pub fn shows(cell: &str, value: f64, what: &str) {
    let shown: f64 = cell
        .parse()
        .unwrap_or_else(|_| panic!("{what}: {cell:?} is not a number"));
    assert!(
        (shown - value).abs() <= 0.005 + 1e-9,
        "{what}: the page shows {cell}, the table has {value}"
    );
}

/// Every HTML page of a site passes Debian's `tidy` with no message, has no script, and each of
/// its links leads to a file of the site; returns how many pages there are.
pub fn check_pages(site: &Path) -> usize {
    let pages: Vec<PathBuf> = walk(site)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    for p in &pages {
        let o = Command::new("tidy")
            .args(["-errors", "-q"])
            .arg(p)
            .output()
            .expect("tidy (Debian's, installed by scripts/test.sh)");
        let said = String::from_utf8_lossy(&o.stderr);
        assert!(
            o.status.code() == Some(0) && said.trim().is_empty(),
            "{}: tidy says:\n{said}",
            p.display()
        );
        let html = std::fs::read_to_string(p).unwrap();
        assert!(!html.contains("<script"), "{}: a script", p.display());
        for l in links(&html) {
            let to = p.parent().unwrap().join(l.split('#').next().unwrap());
            assert!(
                to.is_file(),
                "{}: a link to {l}, which is not there",
                p.display()
            );
        }
    }
    pages.len()
}

/// Every file under `dir`.
pub fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}
