use super::*;
use crate::ir::{AddressSpace, Binding, Builder, EffectOp, Function, MemAccess, PureOp, Stage};
use crate::opt::{optimize, DumpOptions, GenericTarget, OptOptions};

/// `store(a*b + c)`: the generic rules fuse the multiply-add, so one class holds both forms.
fn fma_function() -> Function {
    let mut f = Function::new("main", Stage::Compute);
    let mut b = Builder::new(&mut f);
    let zero = b.i32(0);
    let ssbo = MemAccess {
        space: AddressSpace::Storage(Binding::new(0, 0)),
        offset: 0,
    };
    let v = b.effect(
        EffectOp::Load(ssbo),
        &[zero],
        &[
            crate::ir::Type::F32,
            crate::ir::Type::F32,
            crate::ir::Type::F32,
        ],
    );
    let m = b.pure(PureOp::Fmul, &[v[0], v[1]]);
    let s = b.pure(PureOp::Fadd, &[m, v[2]]);
    b.effect(EffectOp::Store(ssbo), &[zero, s], &[]);
    b.return_();
    f
}

fn html_options() -> OptOptions {
    OptOptions {
        dump: DumpOptions {
            html: true,
            ..DumpOptions::default()
        },
        ..OptOptions::default()
    }
}

#[test]
fn the_page_holds_every_class_the_choice_and_the_rule_that_merged() {
    let f = fma_function();
    let out = optimize(&f, &GenericTarget::new(), &html_options()).unwrap();
    let page = out.dumps.html.expect("page");
    assert!(page.starts_with("<!DOCTYPE html>"));
    // Self-contained: no external script, style sheet or image.
    for needle in ["src=\"http", "href=\"http", "<link", "@import", "url("] {
        assert!(!page.contains(needle), "{needle}");
    }
    let title = format!(
        "{} e-classes, {} e-nodes",
        out.report.classes, out.report.nodes
    );
    assert!(
        page.contains(&title),
        "title counts match the report: {title}"
    );
    assert!(
        page.contains("fma-add-mul-left"),
        "the fusing rule is named"
    );
    assert!(page.contains("Optimizer report"));
    // One `"chosen":N` per extracted class, and the fused class records its rule.
    let data_start = page.find("<script id=\"egraph-data\"").unwrap();
    let data = &page[data_start..page[data_start..].find("</script>").unwrap() + data_start];
    assert_eq!(data.matches("\"id\":").count(), out.report.classes);
    assert!(data.matches("\"chosen\":").count() == out.report.classes);
    assert!(data.matches("\"chosen\":null").count() < out.report.classes);
    assert!(
        data.contains("[\"fma-add-mul-left\",1]"),
        "class-level rule count"
    );
}

#[test]
fn the_view_marks_the_extracted_node_and_its_rule() {
    let f = fma_function();
    let mut opts = html_options();
    opts.dump.html = true;
    let out = optimize(&f, &GenericTarget::new(), &opts).unwrap();
    assert!(out.func.to_string().contains("fma"));
    let page = out.dumps.html.unwrap();
    // The fused class: its extracted e-node is the fma, and fadd shares the class.
    let fma = page.find("{\"l\":\"fma\"").expect("an fma e-node");
    let class_start = page[..fma].rfind("{\"id\":").unwrap();
    let class = &page[class_start..];
    let class = &class[..class.find("]}]}").map_or(class.len(), |e| e + 4)];
    assert!(class.contains("{\"l\":\"fadd\""), "{class}");
    let nodes_at = class.find("\"nodes\":[").unwrap();
    let labels: Vec<&str> = class[nodes_at..]
        .split("{\"l\":\"")
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap()])
        .collect();
    let chosen: usize = class[class.find("\"chosen\":").unwrap() + 9..]
        .split(',')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(labels[chosen], "fma", "{class}");
}

#[test]
fn the_page_is_deterministic_and_lists_every_enode() {
    let f = crate::opt::synth::shader_like(120, 7);
    let a = optimize(&f, &GenericTarget::new(), &html_options()).unwrap();
    let b = optimize(&f, &GenericTarget::new(), &html_options()).unwrap();
    let (pa, pb) = (a.dumps.html.unwrap(), b.dumps.html.unwrap());
    assert!(pa == pb, "two runs give the same page");
    // (The command-line test draws the corpus's largest e-graph, past the DOT dump's limit.)
    assert!(a.report.nodes > 50, "{}", a.report.nodes);
    let data_start = pa.find("<script id=\"egraph-data\"").unwrap();
    assert_eq!(pa[data_start..].matches("{\"l\":").count(), a.report.nodes);
}

#[test]
fn json_strings_cannot_close_the_script_element() {
    let mut j = json::Json::new();
    j.object(|o| o.key("s").str("</script><b>\"\\\n"));
    assert_eq!(
        j.finish(),
        "{\"s\":\"\\u003c/script\\u003e\\u003cb\\u003e\\\"\\\\\\u000a\"}"
    );
}
