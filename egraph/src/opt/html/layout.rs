//! Placement of the e-classes on the page: layers by distance from the skeleton's roots (an
//! operand's class below its user's), each layer a row of boxes in the order the breadth-first
//! walk met them, wrapped when wider than [`MAX_ROW`]; classes no root reaches form the last
//! layers. A box is as wide as its longest label in the page's monospace font and as tall as
//! its e-nodes. The script draws what this computes; only pan and zoom happen in the browser.

use std::collections::{HashMap, VecDeque};

use super::View;

/// Height of an e-node's row.
pub(super) const ROW: i64 = 18;
/// Height of a class box's heading.
pub(super) const HEAD: i64 = 20;
/// Width of a character of the 12px monospace font (an upper bound, so labels fit).
const CHAR: f64 = 7.4;
/// Inner padding of a box.
const PAD: i64 = 8;
/// Space between boxes in a row.
const GAP: i64 = 28;
/// Space between rows, where the edges run.
const ROW_GAP: i64 = 70;
/// Rows wrap beyond this width.
const MAX_ROW: i64 = 6000;

/// A placed class box, top-left corner and size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Box {
    pub x: i64,
    pub y: i64,
    pub w: i64,
    pub h: i64,
}

/// The placement: one box per class of the view (same order) and the page's extent.
pub(super) struct Placed {
    pub boxes: Vec<Box>,
    pub width: i64,
    pub height: i64,
}

pub(super) fn place(view: &View) -> Placed {
    let index: HashMap<u32, usize> = view
        .classes
        .iter()
        .enumerate()
        .map(|(i, c)| (c.id, i))
        .collect();
    // Breadth-first from the roots, in id order.
    let mut layer: Vec<Option<usize>> = vec![None; view.classes.len()];
    let mut order: Vec<usize> = Vec::with_capacity(view.classes.len());
    let mut queue: VecDeque<usize> = VecDeque::new();
    for (i, c) in view.classes.iter().enumerate() {
        if c.root {
            layer[i] = Some(0);
            queue.push_back(i);
        }
    }
    while let Some(i) = queue.pop_front() {
        order.push(i);
        let depth = layer[i].unwrap_or(0);
        for n in &view.classes[i].nodes {
            for k in &n.children {
                if let Some(&j) = index.get(k) {
                    if layer[j].is_none() {
                        layer[j] = Some(depth + 1);
                        queue.push_back(j);
                    }
                }
            }
        }
    }
    let deepest = layer.iter().flatten().copied().max().map_or(0, |d| d + 1);
    for (i, l) in layer.iter_mut().enumerate() {
        if l.is_none() {
            *l = Some(deepest);
            order.push(i);
        }
    }

    let size = |i: usize| {
        let c = &view.classes[i];
        let head = format!("e{}: {}", c.id, c.ty).chars().count();
        let widest = c
            .nodes
            .iter()
            .map(|n| n.label.chars().count())
            .max()
            .unwrap_or(0)
            .max(head);
        let w = (widest as f64 * CHAR).ceil() as i64 + 2 * PAD;
        let h = HEAD + ROW * c.nodes.len() as i64 + PAD / 2;
        (w, h)
    };

    // Rows: each layer's classes in walk order, wrapped at MAX_ROW.
    let mut rows: Vec<Vec<usize>> = Vec::new();
    let mut current_layer = None;
    let mut row_width = 0;
    for &i in &order {
        let (w, _) = size(i);
        let l = layer[i];
        if current_layer != l || row_width + w > MAX_ROW {
            rows.push(Vec::new());
            row_width = 0;
            current_layer = l;
        }
        row_width += w + GAP;
        if let Some(row) = rows.last_mut() {
            row.push(i);
        }
    }

    let mut boxes = vec![
        Box {
            x: 0,
            y: 0,
            w: 0,
            h: 0
        };
        view.classes.len()
    ];
    let widths: Vec<i64> = rows
        .iter()
        .map(|r| r.iter().map(|&i| size(i).0 + GAP).sum::<i64>() - GAP)
        .collect();
    let width = widths.iter().copied().max().unwrap_or(0).max(1);
    let mut y = 0;
    for (row, row_w) in rows.iter().zip(&widths) {
        // Rows are centred under the widest.
        let mut x = (width - row_w) / 2;
        let mut tallest = 0;
        for &i in row {
            let (w, h) = size(i);
            boxes[i] = Box { x, y, w, h };
            x += w + GAP;
            tallest = tallest.max(h);
        }
        y += tallest + ROW_GAP;
    }
    Placed {
        boxes,
        width,
        height: (y - ROW_GAP).max(1),
    }
}
