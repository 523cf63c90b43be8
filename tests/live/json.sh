#!/bin/sh
# json.sh - every `--format json` (replay, show of each view, diff,
# explain, check, check-merge, flags, step, report, record, convert,
# version) is JSON Lines with the kinds and keys docs/json.md names,
# checked with Python's json module (skipped without python3); a trace
# byte that is not UTF-8 still gives valid JSON; show's JSON carries the
# text view's values; -o FILE writes the same as standard output would.
vmsim=${VMSIM:-./vmsim}
case $vmsim in */*) ;; *) vmsim=$PWD/$vmsim ;; esac
cd "$(dirname "$0")/../.." || exit 1
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: json: python3 is not installed"
	echo "json: 0 passed, 0 failed"
	exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
T=traces/golden/mlock/populate-and-unlock.trace
F=traces/golden/file-pagecache/shared-mlock-tmpfs.trace
run() { # run NAME COMMAND...: its stdout into $tmp/NAME.jsonl
	n=$1; shift
	"$@" > "$tmp/$n.jsonl" 2>"$tmp/$n.err"
	echo $? > "$tmp/$n.rc"
}
run replay sh -c "\"$vmsim\" replay --format json traces/examples/plain-strace-sizes-fds.strace tests/bad-inputs/pid-max.trace \
	tests/real-programs/secure_buffer.strace; \"$vmsim\" replay --format json --kernel 4.0 traces/golden/mlock/mlock2-flags.trace"
for v in maps smaps status meminfo vmstat pages lru; do
	run show-$v "$vmsim" show --format json --at 40 $v $T
	"$vmsim" show --at 40 $v $T > "$tmp/show-$v.txt" 2>/dev/null
done
run show-file "$vmsim" show --format json --at 100 smaps $F
"$vmsim" show --at 100 smaps $F > "$tmp/show-file.txt" 2>/dev/null
run diff "$vmsim" diff --format json --all --kernel 4.4 --kernel 6.18 traces/semantics/mlock2-relock.trace $T
run check "$vmsim" check --format json -q --kernel lof-v1 --runs 64 --steps 40 --out "$tmp/co"
"$vmsim" check --kernel lof-v1 --runs 64 --steps 40 --out "$tmp/co" --shard "$tmp/s1" >/dev/null 2>&1
run merge "$vmsim" check-merge --format json --out "$tmp/co2" "$tmp/s1"
run flags-decode "$vmsim" flags decode --format json --arch x86_64 --kernel 6.6 mmap 0x22
run flags-encode "$vmsim" flags --format=json encode --arch mips --kernel lof-v1 mmap 'MAP_SHARED|MAP_LOCKED'
run flags-names "$vmsim" flags decode --format json --names strace --arch x86_64 --kernel lof-v1 mmap 0x80022
run flags-list "$vmsim" flags list --arch x86_64 --kernel 6.18 vm --format json
# a path that is not UTF-8
printf '# vmsim-trace: 1\n# kernel: 6.18\nopenat(AT_FDCWD, "/tmp/\\377x", O_RDONLY) = 3\nmmap(NULL, 4096, PROT_READ, MAP_PRIVATE, 3, 0) = 0x7ffff7ff0000\n' > "$tmp/latin.trace"
run latin "$vmsim" show --format json maps "$tmp/latin.trace"
run explain "$vmsim" explain --format json --diff 4.4 $T
printf 'next\nnext 3\nshow status\nshow maps\nexplain\nbogus\nuntil line 35\nwhere\nlists\nnext 100\nhelp\n' > "$tmp/step.in"
run step sh -c "\"$vmsim\" step --format json $T < \"$tmp/step.in\""
# back and goto through checkpoints (processes of their own), and the timer
printf 'next 10\nback 7\ngoto 30\nnext 2\nback 3\n' > "$tmp/step2.in"
run step-timer sh -c "\"$vmsim\" step --format json --timer --checkpoint-every 4 $T < \"$tmp/step2.in\""
run report "$vmsim" report --format json --kernel 6.18 --kernel 4.4 $T
run convert "$vmsim" convert --format json $T "$tmp/t.bin"
run version "$vmsim" version --format json
if "$vmsim" record -o "$tmp/rec.trace" -- true >/dev/null 2>&1; then
	run record "$vmsim" record --format json -o "$tmp/rec.trace" -- true
else
	echo "SKIP: record: ptrace is not allowed here"
	echo '{"kind": "record", "out": "", "program": [], "exit_status": 0, "tasks": 0, "kernel": "", "expect": "", "faults": false, "fault_samples_lost": 0, "bytes": 0}' > "$tmp/record.jsonl"
fi
# -o FILE: the same bytes as standard output
"$vmsim" replay --format json -o "$tmp/o-replay.jsonl" traces/examples/plain-strace-sizes-fds.strace tests/bad-inputs/pid-max.trace \
	tests/real-programs/secure_buffer.strace >/dev/null 2>&1
"$vmsim" replay --format json traces/examples/plain-strace-sizes-fds.strace tests/bad-inputs/pid-max.trace \
	tests/real-programs/secure_buffer.strace > "$tmp/o-replay-stdout.jsonl" 2>/dev/null
"$vmsim" show --format json --at 40 -o "$tmp/o-show.jsonl" pages $T 2>/dev/null
"$vmsim" diff --format json --all --kernel 4.4 --kernel 6.18 -o "$tmp/o-diff.jsonl" traces/semantics/mlock2-relock.trace $T
"$vmsim" explain --format json --diff 4.4 -o "$tmp/o-explain.jsonl" $T
run stats "$vmsim" replay -q --stats=json tests/data/stats-segv.trace
run stats-hits "$vmsim" replay -q --stats=json tests/data/stats-hits.trace
TMP=$tmp python3 - <<'PY'
import json, os, sys
tmp = os.environ["TMP"]
need = {
 "replay": {"note": {"file", "line", "why"}, "divergence": {"file", "line", "event", "why", "state"},
            "model-event": {"file", "line", "why"}, "invariant": {"file", "line", "event", "why"},
            "summary": {"file", "kernel", "events", "checks", "divergences", "assumed_ranges", "assumed_kb", "skipped"},
            "total": {"traces", "events", "checks", "divergences"}},
 "show-maps": {"vma": {"pid", "start", "end", "perms", "offset", "dev", "inode", "path"}},
 "show-smaps": {"vma": {"pid", "start", "end", "perms", "Rss_kB", "Locked_kB", "VmFlags"}},
 "show-file": {"vma": {"pid", "start", "end", "perms", "path", "Rss_kB", "VmFlags"}},
 "show-status": {"status": {"file", "pid", "at", "VmLck_kB", "VmRSS_kB"}},
 "show-meminfo": {"meminfo": {"file", "MemTotal_kB", "Unevictable_kB", "Mlocked_kB"}},
 "show-vmstat": {"vmstat": {"file", "nr_mlock", "unevictable_pgs_mlocked"}},
 "show-pages": {"page": {"pid", "vma", "vaddr", "pfn", "pagemap", "mapcount", "mlock_count", "flags"}},
 "show-lru": {"page": {"list", "pos", "pfn", "mapcount", "mlock_count", "flags"}},
 "diff": {"difference": {"file", "line", "event", "kernel_a", "kernel_b", "items"},
          "summary": {"file", "kernel_a", "kernel_b", "events", "differing_events", "agree"}},
 "check": {"invariant": {"name", "status", "violations"},
           "summary": {"kernel", "arch", "first_seed", "runs", "steps_per_run", "steps", "checked", "violated"}},
 "merge": {"invariant": {"name", "status", "violations"}, "summary": {"kernel", "runs", "violated"}},
 "flags-decode": {"decode": {"table", "arch", "kernel", "table_kernel", "value", "names"}},
 "flags-encode": {"encode": {"table", "arch", "kernel", "table_kernel", "value", "names"}},
 "flags-list": {"entry": {"table", "arch", "kernel", "table_kernel", "name", "value"}},
 "flags-names": {"decode": {"table", "arch", "kernel", "table_kernel", "value", "names", "names_table", "trace_names"}},
 "latin": {"vma": {"path"}},
 "stats": {"summary": {"file", "events"}, "stats": {"file", "kernel", "events", "wall_s", "processes", "total", "calls",
           "not_modelled", "pages_read_before_first_access", "unevictable_pages"}},
 "stats-hits": {"summary": {"file", "events"}, "stats": {"file", "events", "processes", "calls"}},
 "explain": {"explain": {"file", "line", "event", "a", "b"}},
 "step": {"where": {"file", "line", "kernel", "end"},
          "step": {"file", "line", "kernel", "event", "pid", "result", "diverged", "end", "steps", "lru_pages", "vmas_pid", "vmas"},
          "status": {"file", "pid", "VmLck_kB"}, "vma": {"pid", "start", "end", "perms"},
          "explain": {"file", "line", "event", "result", "steps"}, "state": {"line", "lru_pages", "vmas"},
          "error": {"message"}, "end": {"message", "line"}, "help": {"text"}},
 "step-timer": {"where": {"file", "line", "kernel", "end"},
                "step": {"file", "line", "kernel", "event", "pid", "result", "diverged", "end", "steps", "lru_pages", "vmas_pid", "vmas"},
                "timer": {"wall_ms", "cpu_ms"}},
 "report": {"report": {"file", "kernels", "events", "rows", "stride"},
            "row": {"line", "pid", "event", "sides"}},
 "convert": {"convert": {"in", "out", "from", "to", "bytes_in", "bytes_out"}},
 "version": {"version": {"version", "sanitize", "kernels", "arches", "trace_format"}},
 "record": {"record": {"out", "program", "exit_status", "tasks", "kernel", "expect", "faults", "fault_samples_lost", "bytes"}},
}
passed = failed = 0
def check(cond, msg):
    global passed, failed
    if cond: passed += 1
    else: failed += 1; print("FAIL:", msg)
objs = {}
for name, kinds in need.items():
    lines = open(os.path.join(tmp, name + ".jsonl"), "rb").read().decode("utf-8").splitlines()
    objs[name] = []
    for n, line in enumerate(lines, 1):
        try:
            o = json.loads(line)
        except ValueError as e:
            check(False, "%s line %d is not JSON (%s): %r" % (name, n, e, line[:80])); continue
        objs[name].append(o)
        k = o.get("kind")
        check(k in kinds and kinds[k] <= o.keys(), "%s line %d: kind %r, keys %s" % (name, n, k, sorted(o)))
    seen = {o.get("kind") for o in objs[name]}
    check(seen >= set(kinds) or name in ("replay", "check", "merge"), "%s: kinds %s, want %s" % (name, seen, set(kinds)))
r = [o["kind"] for o in objs["replay"]]
check(r.count("summary") == 4 and r.count("total") == 1 and "note" in r and "divergence" in r, "replay kinds %s" % r)
# show's JSON is the text view's content
txt = open(os.path.join(tmp, "show-status.txt")).read()
st = objs["show-status"][0]
check("VmLck:\t%8d kB" % st["VmLck_kB"] in txt, "status VmLck %s not in the text view" % st.get("VmLck_kB"))
maps = open(os.path.join(tmp, "show-maps.txt")).read().splitlines()
check(len(objs["show-maps"]) == len(maps), "maps: %d objects for %d lines" % (len(objs["show-maps"]), len(maps)))
check(all(("%x" % o["start"]) in maps[i] for i, o in enumerate(objs["show-maps"])), "maps starts differ from the text")
pages = [l for l in open(os.path.join(tmp, "show-pages.txt")) if l.startswith(" ")]
check(len(objs["show-pages"]) == len(pages), "pages: %d objects for %d page lines" % (len(objs["show-pages"]), len(pages)))
sm = [o for o in objs["show-file"] if o["path"].startswith("/dev/shm")]
check(sm and all(isinstance(o["VmFlags"], list) for o in sm), "smaps of the tmpfs file")
check(all(o["path"] == "" or o["path"].startswith(("/", "[")) for n in ("show-smaps", "show-file", "show-maps") for o in objs[n]), "a path that is not one")
d = objs["diff"]
check(any(o["kind"] == "difference" and any(i["what"] == "VmLck" for i in o["items"]) for o in d), "diff: no VmLck item")
check([o["agree"] for o in d if o["kind"] == "summary"][:1] == [False] and len([o for o in d if o["kind"] == "summary"]) == 2, "diff summaries %s" % [o for o in d if o["kind"] == "summary"])
c = objs["check"]
v = [o for o in c if o["kind"] == "invariant" and o["status"] == "violated" and o.get("reproducer")]
check(v and all(o["trace"].startswith("# vmsim-trace") for o in v), "check: no violated invariant with its reproducer text")
check([o for o in c if o["kind"] != "summary"] == [o for o in objs["merge"] if o["kind"] != "summary"] or
      [(o["name"], o["violations"]) for o in c if o["kind"] == "invariant"] ==
      [(o["name"], o["violations"]) for o in objs["merge"] if o["kind"] == "invariant"], "check and check-merge differ")
check(objs["flags-names"][0]["trace_names"] == "MAP_PRIVATE|MAP_ANONYMOUS|MAP_SYNC" and
      objs["flags-names"][0]["names"] == "MAP_PRIVATE|MAP_ANONYMOUS|MAP_LOCKONFAULT", "flags decode --names %s" % objs["flags-names"])
check(objs["flags-decode"][0]["table_kernel"] == "6.1" and objs["flags-decode"][0]["names"] == "MAP_PRIVATE|MAP_ANONYMOUS", "flags decode %s" % objs["flags-decode"])
check(objs["flags-encode"][0]["value"] == "0x8001", "flags encode mips lof-v1 %s" % objs["flags-encode"])
check(any(o["name"] == "VM_LOCKED" and o.get("mnemonic") == "lo" for o in objs["flags-list"]), "flags list vm: VM_LOCKED lo")
check(objs["latin"] and objs["latin"][0]["path"] == "/tmp/\u00ffx", "latin path %r" % (objs["latin"][:1],))
st = [o for o in objs["stats"] if o["kind"] == "stats"][0]
p0 = st["processes"][0]
want = {"first_enomem_access": 4, "enomem": 4, "sigsegv_lines": 8, "sigsegv": 4, "minor_faults": 4,
        "vmas_at_first_enomem": 10, "peak_map_count": 10, "accesses": 8}
check(all(p0.get(k) == v for k, v in want.items()), "replay --stats: %s, want %s" % ({k: p0.get(k) for k in want}, want))
check(st["calls"] == {"mmap": 1, "mprotect": 8, "touch": 8}, "replay --stats calls %s" % st["calls"])
# every access a hit, the hot loop's (the last ones too): counted as the full path counts them
sh = [o for o in objs["stats-hits"] if o["kind"] == "stats"][0]
check(sh["events"] == 301 and sh["processes"][0]["accesses"] == 300 and sh["processes"][0]["calls"] == 301 and
      sh["calls"] == {"mmap": 1, "touch": 300}, "replay --stats of hits: %s %s" % (sh["events"], sh["calls"]))
# step answers every command, in order
k = [o["kind"] for o in objs["step"]]
check(k == ["where", "step", "step", "status", "vma", "vma", "explain", "error", "step", "where", "state", "end", "help"] or
      (k[:4] == ["where", "step", "step", "status"] and "error" in k and k[-2:] == ["end", "help"]), "step kinds %s" % k)
sv = [o for o in objs["step"] if o["kind"] == "step"]
check(sv and all(isinstance(o["vmas"], list) and set(o["lru_pages"]) == {"inactive_anon", "active_anon", "inactive_file",
      "active_file", "unevictable"} for o in sv), "step: vmas and lists")
check(any(v["lock"] == "locked" and v["Locked_kB"] == 16 for o in sv for v in o["vmas"]), "step: no locked VMA of 16 kB")
rep = objs["report"]
check(rep[0]["kernels"] == ["6.18", "4.4"] and rep[0]["rows"] == len(rep) - 1, "report header %s" % rep[0])
check(all(len(o["sides"]) == 2 and {"kernel", "result", "diverged", "locked_vm_pages", "rlimit_memlock_pages",
      "lru_pages", "vmas", "explain"} <= set(o["sides"][0]) for o in rep[1:]), "report rows")
cv = objs["convert"][0]
check(cv["from"] == "text" and cv["to"] == "binary" and cv["bytes_out"] == os.path.getsize(os.path.join(tmp, "t.bin")), "convert %s" % cv)
vv = objs["version"][0]
check("6.18" in vv["kernels"] and "x86_64" in vv["arches"] and vv["trace_format"] == [1], "version %s" % vv)
rc = objs["record"][0]
check(rc["program"] in ([], ["true"]) and rc["exit_status"] == 0, "record %s" % rc)
for name, ref in (("o-replay", "o-replay-stdout"), ("o-show", None), ("o-diff", "diff"), ("o-explain", "explain")):
    got = open(os.path.join(tmp, name + ".jsonl"), "rb").read()
    if ref:
        check(got == open(os.path.join(tmp, ref + ".jsonl"), "rb").read(), "-o: %s differs from standard output" % name)
    else:
        check(got.count(b'"kind": "page"') > 0, "-o: %s has no page" % name)
print("json: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY
