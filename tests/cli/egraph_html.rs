//! `agxc compile --emit egraph-html`: the page loaded in headless Chromium (Debian's
//! `chromium`, installed by `.ci/run`). The page's own self-check (`#selftest`, in its script)
//! writes what it finds into the DOM, which `--dump-dom` returns: no script errors, every
//! extracted e-node marked, a click on an e-class showing its detail panel, search and zoom
//! working. The expected figures come from the page's data, counted here. A screenshot is kept
//! under the test's scratch directory.

use std::path::{Path, PathBuf};
use std::process::Command;

use agxc_tests::corpus::{announce, corpus_dir, oracle_required};

use super::{agxc, scratch};

/// The corpus shader the page is made from: the largest e-graph of the SPIR-V corpus (about
/// 1200 e-nodes in 900 e-classes).
const SHADER: &str = "sw_raytracing";

fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser"].iter().find_map(|name| {
        let ok = Command::new(name)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        ok.then(|| PathBuf::from(name))
    })
}

fn headless(browser: &Path, profile: &Path, args: &[&str]) -> std::process::Output {
    Command::new(browser)
        .args([
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--hide-scrollbars",
            "--window-size=1400,900",
            &format!("--user-data-dir={}", profile.display()),
        ])
        .args(args)
        .output()
        .expect("chromium runs")
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

#[test]
fn the_viewer_loads_marks_the_choice_and_opens_the_detail_panel_in_chromium() {
    let dir = scratch("egraph_html");
    let case = corpus_dir("spirv").join(SHADER);
    let shader = case.join("shader.spv");
    let page = dir.join("egraph.html");
    let o = agxc(&[
        "compile",
        shader.to_str().unwrap(),
        "--emit",
        "egraph-html",
        "-o",
        page.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(&page).unwrap();
    // Deterministic: a second run writes the same page.
    let o = agxc(&["compile", shader.to_str().unwrap(), "--emit", "egraph-html"]);
    assert!(o.stdout == html.as_bytes(), "two runs give the same page");
    // The figures the self-check must find, counted from the page's data.
    let start = html.find("<script id=\"egraph-data\"").unwrap();
    let data = &html[start..];
    let data = &data[data.find('>').unwrap() + 1..data.find("</script>").unwrap()];
    let data: serde_json::Value = serde_json::from_str(data).expect("the data is JSON");
    let classes = data["classes"].as_array().unwrap();
    let enodes: usize = classes
        .iter()
        .map(|c| c["nodes"].as_array().unwrap().len())
        .sum();
    let extracted = classes.iter().filter(|c| !c["chosen"].is_null()).count();
    assert!(enodes > 400, "a corpus-sized e-graph: {enodes} e-nodes");
    assert!(extracted > 0);

    let Some(browser) = chromium() else {
        let why = "chromium is not installed (apt-get install chromium)";
        assert!(!oracle_required(), "{why}");
        announce(&format!("SKIPPED: e-graph viewer test: {why}"));
        return;
    };
    let url = format!("file://{}#selftest", page.display());
    let o = headless(
        &browser,
        &dir.join("profile-dom"),
        &["--virtual-time-budget=20000", "--dump-dom", &url],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let dom = String::from_utf8_lossy(&o.stdout);
    assert!(dom.contains("data-errors=\"0\""), "no script errors");
    let report = dom
        .split("<pre id=\"selftest\">")
        .nth(1)
        .and_then(|s| s.split("</pre>").next())
        .unwrap_or_else(|| {
            panic!(
                "the self-check did not run:\n{}",
                &dom[..dom.len().min(2000)]
            )
        });
    let r: serde_json::Value = serde_json::from_str(&unescape(report)).expect("self-check JSON");
    announce(&format!(
        "e-graph viewer: {} e-classes, {enodes} e-nodes, drawn in {} ms; self-check {r}",
        classes.len(),
        r["renderMs"]
    ));
    assert_eq!(r["errors"].as_array().map(Vec::len), Some(0), "{r}");
    assert_eq!(r["classes"].as_u64(), Some(classes.len() as u64), "{r}");
    assert_eq!(r["enodes"].as_u64(), Some(enodes as u64), "{r}");
    assert_eq!(r["extracted"].as_u64(), Some(extracted as u64), "{r}");
    assert_eq!(
        r["expectedExtracted"].as_u64(),
        Some(extracted as u64),
        "{r}"
    );
    let clicked = classes
        .iter()
        .find(|c| Some(c["id"].as_u64().unwrap()) == r["clicked"].as_u64())
        .expect("the clicked class exists");
    let clicked_nodes = clicked["nodes"].as_array().unwrap().len() as u64;
    assert_eq!(r["detailShown"], true, "{r}");
    assert_eq!(r["selectedMarked"], true, "{r}");
    assert_eq!(r["detailRows"].as_u64(), Some(clicked_nodes), "{r}");
    assert_eq!(r["detailExtractedRows"].as_u64(), Some(1), "{r}");
    assert!(
        r["detailTitle"]
            .as_str()
            .unwrap()
            .starts_with(&format!("e-class e{}", clicked["id"])),
        "{r}"
    );
    let op = r["searchFor"].as_str().unwrap().to_lowercase();
    let expected_matches = classes
        .iter()
        .flat_map(|c| c["nodes"].as_array().unwrap())
        .filter(|n| n["l"].as_str().unwrap().to_lowercase().contains(&op))
        .count() as u64;
    assert!(expected_matches > 0);
    assert_eq!(r["searchMatches"].as_u64(), Some(expected_matches), "{r}");
    assert_eq!(r["zoomChanged"], true, "{r}");

    let shot = dir.join("egraph.png");
    let _ = std::fs::remove_file(&shot);
    let o = headless(
        &browser,
        &dir.join("profile-shot"),
        &[
            &format!("--screenshot={}", shot.display()),
            "--virtual-time-budget=20000",
            &format!("file://{}", page.display()),
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let png = std::fs::read(&shot).expect("a screenshot");
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 10_000,
        "{} bytes",
        png.len()
    );
    announce(&format!("e-graph viewer screenshot: {}", shot.display()));
}
