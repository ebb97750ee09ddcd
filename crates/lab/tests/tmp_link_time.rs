#[test]
fn link_time() {
    for frag in [
        "s=voucher&m=honest,send-twice&r=off",
        "s=deploy&m=honest,other-principal&r=shared&p=signed&a=accept&c=121000&b=alice-token&x=B&e=prod",
    ] {
        let n = 200;
        let t = std::time::Instant::now();
        for _ in 0..n {
            std::hint::black_box(mrtr_lab::share::read_fragment(frag));
        }
        eprintln!("{frag}: {:?} per link", t.elapsed() / n);
    }
}
