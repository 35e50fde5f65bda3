#!/usr/bin/env python3
"""Helper for scripts/bench.

  bench_helper.py stream --history H --tag-every E --tail T [--extras] [--tail-breaking]
                         [--app DIR] [--seed S] --meta FILE
      Writes a `git fast-import` stream to stdout: H commits with an annotated
      semver release tag every E commits (the last one on commit H), then T
      commits after the last release. Writes key=value facts (last tag, expected
      next version, counts) to FILE. With --app, the first commit adds every file
      under DIR (an app with its .relctl.json) and the first release is the
      version in DIR/app.json.

  bench_helper.py branches --history H --branch-every E --tail T --app DIR --meta FILE
      Writes a `git fast-import` stream: the app of DIR released as its version
      on the first commit, then H commits on main; every E commits a release
      branch forks off main with one commit that moves the app's version and
      build numbers, tagged there and never merged back (so HEAD reaches none
      of those tags); every 4th branch is also tagged in two parts (`v29.K`,
      not a version of the scheme) and as a build (`build-N`). Then T commits.
      The base is the first release; the versionCode floor is the highest
      branch release's.

  bench_helper.py measure RUNS LABEL CMD... [::: LABEL CMD...]...
      Runs each command RUNS times, interleaved (a b a b ...), stdout and stderr
      to /dev/null; wall time around spawn and wait, peak RSS from wait4's
      rusage (no wrapper process, so millisecond commands compare fairly).
      Prints one line per command: LABEL BEST_S MEDIAN_S PEAK_RSS_KIB
"""
import os
import random
import re
import statistics
import subprocess
import sys
import time

START_EPOCH = 1_546_300_800  # 2019-01-01T00:00:00Z

PEOPLE = [
    ("Ada Lovelace", "ada@example.com"),
    ("Grace Hopper", "grace@example.com"),
    ("Linus Pauling", "linus@example.com"),
    ("Margaret Hamilton", "margaret@example.com"),
    ("Katherine Johnson", "katherine@example.com"),
    ("dependabot[bot]", "49699333+dependabot[bot]@users.noreply.github.com"),
]
ZONES = ["+0000", "+0100", "+0200", "-0500", "-0800", "+0530", "+0900"]
SCOPES = ["auth", "api", "ui", "ios", "android", "nav", "store", "i18n",
          "push", "payments", "onboarding", "settings"]
VERBS = ["add", "handle", "support", "remove", "rework", "guard against",
         "cache", "validate", "retry", "log", "migrate", "expose"]
NOUNS = ["token refresh", "deep links", "dark mode", "offline queue",
         "push permissions", "empty cart", "locale fallback", "splash screen",
         "biometric login", "crash on resume", "pagination cursor",
         "Android 14 back gesture", "iPad split view", "analytics consent"]
WORDS = ("the a when on if we now so that this it was not with for before "
         "after request screen user cache state build release app store "
         "value error crash retry timeout token layout list view").split()
# (type, weight)
TYPES = [("feat", 24), ("fix", 30), ("chore", 14), ("docs", 7), ("refactor", 7),
         ("test", 5), ("perf", 3), ("ci", 3), ("build", 2), ("style", 2),
         ("revert", 1), ("other", 2)]
TYPE_NAMES = [t for t, _ in TYPES]
TYPE_WEIGHTS = [w for _, w in TYPES]


def sentence(rng, lo, hi):
    words = [rng.choice(WORDS) for _ in range(rng.randint(lo, hi))]
    return " ".join(words).capitalize() + "."


def paragraph(rng):
    lines, line = [], []
    for _ in range(rng.randint(2, 4)):
        line.append(sentence(rng, 4, 11))
        if len(" ".join(line)) > 60:
            lines.append(" ".join(line))
            line = []
    if line:
        lines.append(" ".join(line))
    return "\n".join(lines)


def message(rng, n, breaking_ok, force_breaking=False):
    """Returns (message, level) with level 3=major 2=minor 1=patch 0=none."""
    kind = rng.choices(TYPE_NAMES, TYPE_WEIGHTS)[0]
    subject = f"{rng.choice(VERBS)} {rng.choice(NOUNS)}"
    if kind == "other":
        msg = rng.choice([
            f"Merge pull request #{rng.randint(10, 9999)} from team/{subject.replace(' ', '-')}",
            f"Merge branch 'release/{rng.randint(1, 30)}.x'",
            "WIP",
            f"Update {rng.choice(['README.md', 'app.json', 'Podfile.lock'])}",
        ]) + "\n"
        return msg, 0
    if kind == "revert":
        return f'Revert "fix: {subject}"\n\nThis reverts commit {rng.getrandbits(160):040x}.\n', 0
    if kind == "chore" and rng.random() < 0.4:
        header = f"chore(deps): bump {rng.choice(['expo', 'react-native', 'lodash', 'axios'])} " \
                 f"from {rng.randint(1, 9)}.{rng.randint(0, 20)}.0 to {rng.randint(10, 20)}.0.{rng.randint(0, 9)}"
    else:
        scope = f"({rng.choice(SCOPES)})" if rng.random() < 0.6 else ""
        header = f"{kind}{scope}: {subject}"
    level = {"feat": 2, "fix": 1, "perf": 1}.get(kind, 0)
    bang = False
    breaking = force_breaking or (breaking_ok and rng.random() < 0.0005)
    if breaking and rng.random() < 0.3 and not force_breaking:
        bang = True
        header = header.replace(":", "!:", 1)
    parts = [header]
    if rng.random() < 0.35:
        parts.append("\n\n".join(paragraph(rng) for _ in range(rng.randint(1, 2))))
    footers = []
    if rng.random() < 0.3:
        footers.append(f"Refs: #{rng.randint(1, 5000)}")
    if rng.random() < 0.1:
        name, mail = rng.choice(PEOPLE[:5])
        footers.append(f"Reviewed-by: {name} <{mail}>")
    if rng.random() < 0.05:
        name, mail = rng.choice(PEOPLE[:5])
        footers.append(f"Co-authored-by: {name} <{mail}>")
    if breaking and not bang:
        footers.append("BREAKING CHANGE: " + sentence(rng, 6, 14))
    if footers:
        parts.append("\n".join(footers))
    if breaking:
        level = 3
    return "\n\n".join(parts) + "\n", level


class Stream:
    def __init__(self, out):
        self.out = out
        self.mark = 0
        self.ts = START_EPOCH
        self.branch = "main"
        self.parent = None

    def data(self, text):
        b = text.encode()
        self.out.write(b"data %d\n" % len(b))
        self.out.write(b)
        self.out.write(b"\n")

    def commit(self, rng, msg, files=(), touch=None):
        self.mark += 1
        n = self.mark
        self.ts += rng.randint(60, 3 * 3600)
        name, mail = rng.choice(PEOPLE)
        zone = rng.choice(ZONES)
        author_ts = self.ts - rng.randint(0, 2 * 86400)
        w = self.out.write
        w(f"commit refs/heads/{self.branch}\nmark :{n}\n".encode())
        w(f"author {name} <{mail}> {author_ts} {zone}\n".encode())
        w(f"committer {name} <{mail}> {self.ts} {zone}\n".encode())
        self.data(msg)
        if self.parent is not None:
            w(b"from :%d\n" % self.parent)
            self.parent = None
        for path, text in files:
            self.out.write(f"M 100644 inline {path}\n".encode())
            self.data(text)
        # One small file modified per commit, in a tree of ~170 files (or under `touch`, a folder).
        folder = touch if touch is not None else "src"
        self.out.write(f"M 100644 inline {folder}/m{n % 17}/f{n % 10}.ts\n".encode())
        self.data(f"export const v{n % 10} = {n};\n")
        return n

    def tag(self, name, mark, text):
        self.out.write(f"tag {name}\nfrom :{mark}\n".encode())
        self.out.write(f"tagger Release Bot <release@example.com> {self.ts} +0000\n".encode())
        self.data(text)

    def lightweight(self, name, mark):
        self.out.write(f"reset refs/tags/{name}\nfrom :{mark}\n".encode())


def app_tree(root):
    """(path, text) of every file under root, sorted, paths relative to root."""
    files = []
    for folder, _, names in os.walk(root):
        for name in names:
            full = os.path.join(folder, name)
            with open(full, encoding="utf-8") as f:
                files.append((os.path.relpath(full, root), f.read()))
    return sorted(files)


def versions(count, first=(1, 0, 0)):
    """Release k (1-based): `first`, then mostly minors, every 5th a patch, every 50th a major."""
    major, minor, patch = first
    out = [first]
    for k in range(2, count + 1):
        if k % 50 == 0:
            major, minor, patch = major + 1, 0, 0
        elif k % 5 == 0:
            patch += 1
        else:
            minor, patch = minor + 1, 0
        out.append((major, minor, patch))
    return out


def cmd_stream(args):
    import argparse
    p = argparse.ArgumentParser(prog="bench_helper.py stream")
    p.add_argument("--history", type=int, required=True)
    p.add_argument("--tag-every", type=int, required=True)
    p.add_argument("--tail", type=int, required=True)
    p.add_argument("--extras", action="store_true",
                   help="add prerelease and non-semver tags")
    p.add_argument("--tail-breaking", action="store_true")
    p.add_argument("--app", help="folder whose files the first commit adds")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--meta", required=True)
    a = p.parse_args(args)
    if a.history % a.tag_every:
        p.error("--history must be a multiple of --tag-every")
    out = sys.stdout.buffer
    s = Stream(out)
    rng = random.Random(a.seed)
    ntags = a.history // a.tag_every
    app_files = app_tree(a.app) if a.app else []
    first = (1, 0, 0)
    if a.app:
        import json
        with open(os.path.join(a.app, "app.json")) as f:
            first = tuple(int(x) for x in json.load(f)["expo"]["version"].split("."))
    vers = versions(ntags, first)
    extra_tags = 0
    for i in range(1, a.history + 1):
        s.commit(rng, message(rng, i, True)[0], app_files if i == 1 else [])
        k, r = divmod(i, a.tag_every)
        if r == 0:
            v = "%d.%d.%d" % vers[k - 1]
            s.tag(f"v{v}", i, f"Release {v}\n")
        elif a.extras and k < ntags:
            nv = "%d.%d.%d" % vers[k]
            if r == a.tag_every // 2:
                s.tag(f"v{nv}-rc.1", i, f"Release candidate {nv}-rc.1\n")
                extra_tags += 1
            elif r == a.tag_every // 4:
                s.tag(f"v{nv}-beta.{k}", i, f"Beta {nv}\n")
                extra_tags += 1
            elif r == a.tag_every // 3:
                s.lightweight(f"build-{i}", i)
                s.tag(f"android/store-upload-{k}", i, "Uploaded to Play Console\n")
                extra_tags += 2
    # Tail: its own RNG so that every repo with the same --tail gets the same
    # messages and tree changes (only dates/marks continue from the history).
    trng = random.Random(a.seed * 7919 + a.tail)
    level = 0
    for j in range(1, a.tail + 1):
        force = a.tail_breaking and j == a.tail // 2
        msg, lv = message(trng, j, a.tail_breaking, force)
        level = max(level, lv)
        m = s.commit(trng, msg)
        if a.extras and j in (a.tail // 3, 2 * a.tail // 3):
            # Non-semver tags in the tail must not be taken for releases.
            s.lightweight(f"deploy/staging-{j}", m)
            s.tag(f"build-{m}", m, "CI build\n")
            extra_tags += 2
    out.write(b"done\n")
    out.flush()
    ma, mi, pa = vers[-1]
    nxt = {3: (ma + 1, 0, 0), 2: (ma, mi + 1, 0), 1: (ma, mi, pa + 1), 0: None}[level]
    with open(a.meta, "w") as f:
        f.write(f"last_tag=v{ma}.{mi}.{pa}\n")
        f.write(f"expected={'%d.%d.%d' % nxt if nxt else 'none'}\n")
        f.write(f"commits={a.history + a.tail}\n")
        f.write(f"tail={a.tail}\n")
        f.write(f"release_tags={ntags}\n")
        f.write(f"other_tags={extra_tags}\n")


PROJECTS_CONFIG = """{
  "projects": [
    {"name": "consumer", "path": "apps/consumer", "tagFormat": "consumer-v{version}", "dependsOn": ["shared"]},
    {"name": "driver", "path": "apps/driver", "tagFormat": "driver-v{version}", "dependsOn": ["shared"]},
    {"name": "shared", "path": "packages/shared", "tagFormat": "shared-v{version}"}
  ]
}
"""


def cmd_projects(args):
    """A monorepo: 3 projects (two apps depending on a shared package), each tagged once, then a tail whose commits
    touch apps/consumer, apps/driver, packages/shared or the root in turn (one in 4 each)."""
    import argparse
    p = argparse.ArgumentParser(prog="bench_helper.py projects")
    p.add_argument("--history", type=int, required=True)
    p.add_argument("--tail", type=int, required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--meta", required=True)
    a = p.parse_args(args)
    out = sys.stdout.buffer
    s = Stream(out)
    rng = random.Random(a.seed)
    folders = ["apps/consumer", "apps/driver", "packages/shared", "src"]
    for i in range(1, a.history + 1):
        files = [(".relctl.json", PROJECTS_CONFIG)] if i == 1 else []
        s.commit(rng, message(rng, i, False)[0], files, touch=folders[i % 4])
    for name in ("consumer", "driver", "shared"):
        s.tag(f"{name}-v1.0.0", a.history, f"Release {name} 1.0.0\n")
    trng = random.Random(a.seed * 7919 + a.tail)
    for j in range(1, a.tail + 1):
        s.commit(trng, message(trng, j, False)[0], touch=folders[j % 4])
    out.write(b"done\n")
    out.flush()
    with open(a.meta, "w") as f:
        f.write("last_tag=consumer-v1.0.0\n")
        f.write("expected=1.1.0\n")
        f.write(f"commits={a.history + a.tail}\n")
        f.write(f"tail={a.tail}\n")


def cmd_branches(args):
    import argparse
    import json
    p = argparse.ArgumentParser(prog="bench_helper.py branches")
    p.add_argument("--history", type=int, required=True)
    p.add_argument("--branch-every", type=int, required=True)
    p.add_argument("--tail", type=int, required=True)
    p.add_argument("--app", required=True)
    p.add_argument("--seed", type=int, default=3)
    p.add_argument("--meta", required=True)
    a = p.parse_args(args)
    out = sys.stdout.buffer
    s = Stream(out)
    rng = random.Random(a.seed)
    files = app_tree(a.app)
    texts = dict(files)
    app = texts["app.json"]
    first = json.loads(app)["expo"]["version"]
    code = int(json.loads(app)["expo"]["android"]["versionCode"])
    s.commit(rng, "chore: the app\n", files)
    s.tag(f"v{first}", 1, f"Release {first}\n")
    major = int(first.split(".")[0]) + 1
    branches = 0
    for i in range(1, a.history + 1):
        s.branch = "main"
        m = s.commit(rng, message(rng, i, False)[0])
        if i % a.branch_every == 0:
            branches += 1
            version = f"{major}.{branches}.0"
            code += 3
            moved = app.replace(f'"version": "{first}"', f'"version": "{version}"')
            moved = re.sub(r'"buildNumber": "\d+"', f'"buildNumber": "{code}"', moved)
            moved = re.sub(r'"versionCode": \d+', f'"versionCode": {code}', moved)
            s.branch = f"release/{version}"
            s.parent = m
            b = s.commit(rng, f"chore(release): {version}\n", [("app.json", moved)])
            s.tag(f"v{version}", b, f"Release {version}\n")
            if branches % 4 == 0:
                s.lightweight(f"v29.{branches}", b)
                s.lightweight(f"build-{code}", b)
            s.parent = None
    s.branch = "main"
    trng = random.Random(a.seed * 7919 + a.tail)
    level = 0
    for j in range(1, a.tail + 1):
        msg, lv = message(trng, j, False)
        level = max(level, lv)
        s.commit(trng, msg)
    out.write(b"done\n")
    out.flush()
    ma, mi, pa = (int(x) for x in first.split("."))
    nxt = {2: (ma, mi + 1, 0), 1: (ma, mi, pa + 1), 0: None}[min(level, 2)]
    with open(a.meta, "w") as f:
        f.write(f"last_tag=v{first}\n")
        f.write(f"expected={'%d.%d.%d' % nxt if nxt else 'none'}\n")
        f.write(f"commits={a.history + a.tail + 1}\n")
        f.write(f"unreachable_tags={branches}\n")
        f.write(f"floor_code={code}\n")


def run_once(cmd):
    """(wall seconds, peak RSS KiB) of one run, or raises on a non-zero exit."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    dt = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    return dt, usage.ru_maxrss, proc.returncode


def cmd_measure(args):
    runs = int(args[0])
    groups, cur = [], []
    for tok in args[1:]:
        if tok == ":::":
            groups.append(cur)
            cur = []
        else:
            cur.append(tok)
    groups.append(cur)
    if any(len(g) < 2 for g in groups):
        raise SystemExit("bench_helper.py measure: each group needs LABEL CMD...")
    times = {i: [] for i in range(len(groups))}
    peaks = {i: 0 for i in range(len(groups))}
    for _ in range(runs):
        for i, g in enumerate(groups):
            dt, rss, rc = run_once(g[1:])
            if rc != 0:
                raise SystemExit(f"bench: FAILED during timing ({g[0]}): exit {rc}: {' '.join(g[1:])}")
            times[i].append(dt)
            peaks[i] = max(peaks[i], rss)
    for i, g in enumerate(groups):
        print(g[0], "%.4f" % min(times[i]), "%.4f" % statistics.median(times[i]), peaks[i])


def main():
    commands = {"stream": cmd_stream, "branches": cmd_branches, "projects": cmd_projects, "measure": cmd_measure}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        print(__doc__, file=sys.stderr)
        return 2
    commands[sys.argv[1]](sys.argv[2:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
