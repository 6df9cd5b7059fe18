use agxc::backend_agx::target::G13Target;
use std::time::Instant;
fn main() {
    for i in 0..5 {
        let t = Instant::now();
        let g = G13Target::new();
        let e = t.elapsed();
        println!("build {i}: {e:?}");
        std::hint::black_box(g);
    }
}
