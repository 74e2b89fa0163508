//! The Connect Four and Battleship examples, run as programs: what they print and their
//! exit codes. `cargo test` builds the examples next to the test binaries; when they are
//! missing (a run filtered to this test alone), they are built first with the same cargo.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// The example's executable, built by this test if it is not there yet.
fn example(name: &str) -> PathBuf {
    // Test binaries live in <target>/<profile>/deps/, examples in <target>/<profile>/examples/.
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(|deps| deps.parent()).unwrap();
    let path = profile_dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    if !path.exists() {
        let target_dir = profile_dir.parent().unwrap();
        let mut build = Command::new(env!("CARGO"));
        build.args(["build", "-p", "referees", "--example", name, "--target-dir"]);
        build.arg(target_dir);
        if profile_dir.ends_with("release") {
            build.arg("--release");
        }
        assert!(build.status().unwrap().success(), "cannot build {name}");
    }
    path
}

fn run(name: &str, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(example(name))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Exit code, stdout and stderr; a failure must be exactly one line on stderr.
fn outcome(output: Output) -> (i32, String, String) {
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    if !output.status.success() && stdout.is_empty() {
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    (output.status.code().unwrap(), stdout, stderr)
}

#[test]
fn connect_four_prints_the_verdict_or_one_error_line() {
    let cases: [(&[&str], i32, &str); 6] = [
        (&["A_Red", "B_Yellow"], 0, "Undecided\n"),
        (&[], 0, "Undecided\n"),
        (
            &[
                "G_Yellow", "F_Red", "G_Yellow", "F_Red", "G_Yellow", "F_Red", "G_Yellow",
            ],
            0,
            "Yellow\n",
        ),
        (
            &[
                "A_Red",
                "--ignore-after-decision",
                "B_Yellow",
                "A_Red",
                "B_Yellow",
                "A_Red",
                "B_Yellow",
                "A_Red",
                "C_Yellow",
            ],
            0,
            "Red\n",
        ),
        (&["A_Red", "A_Red"], 2, ""),
        (&["--frobnicate"], 2, ""),
    ];
    for (args, code, stdout) in cases {
        let (got_code, got_stdout, _) = outcome(run("connect-four", args, ""));
        assert_eq!((got_code, got_stdout.as_str()), (code, stdout), "{args:?}");
    }
    let (_, _, stderr) = outcome(run("connect-four", &["A_Red", "H_Yellow"], ""));
    assert_eq!(
        stderr,
        "connect-four: move at index 1 ('H_Yellow'): unknown column 'H' (columns are A to G)\n"
    );
}

const CLASSIC: &str = "\
1000011000
1010000010
1010111010
1000000000
0000000010
0000111000
0000000010
0001000000
0000000100
0000000000
";

#[test]
fn battleship_reads_a_file_or_stdin() {
    let file = std::env::temp_dir().join(format!("battleship-{}.txt", std::process::id()));
    std::fs::write(&file, CLASSIC).unwrap();
    let path = file.to_str().unwrap();
    let from_file = outcome(run("battleship", &[path], ""));
    std::fs::remove_file(&file).unwrap();
    assert_eq!(from_file, (0, "valid\n".into(), String::new()));
    for args in [&[][..], &["-"]] {
        assert_eq!(
            outcome(run("battleship", args, CLASSIC)),
            (0, "valid\n".into(), String::new())
        );
    }
    // The 1-ship D8 moved to D7, touching E6 at a corner: a fault on stdout, exit 1.
    let touching = CLASSIC.replace("0000000010\n0001", "0001000010\n0000");
    assert_eq!(
        outcome(run("battleship", &[], &touching)),
        (
            1,
            "ships touch at a corner: E6 and D7\n".into(),
            String::new()
        )
    );
    // Not a field, a missing file, two files: one line on stderr, exit 2.
    let (code, _, stderr) = outcome(run("battleship", &[], "10201\n"));
    assert_eq!(
        (code, stderr.as_str()),
        (
            2,
            "battleship: stdin: line 1, column 3: '2' is not 0 or 1\n"
        )
    );
    assert_eq!(outcome(run("battleship", &["/nonexistent/field"], "")).0, 2);
    assert_eq!(outcome(run("battleship", &["a", "b"], "")).0, 2);
}
