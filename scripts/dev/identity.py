#!/usr/bin/env python3
"""Behaviour identity between two builds of geocluster: a refactor must not move a result.

For seoul listings (`geocluster generate`), distinct points (scripts/peers/run_peers.py
--generate) and world listings (`geocluster generate --scenario world`, clustered on the
sphere: `--metric auto` chooses great circles for them) at each size, with 1 and 2 threads, both binaries run
`geocluster cluster FILE -o labels.csv --condensed-tree ct.csv --mst mst.csv`; then

- labels: the two label files are byte for byte the same;
- condensed tree: the same rows, compared as a set (row order is not part of the contract);
- MST: the same total weight (exact, summed with math.fsum) and the same edges as a set;
- pins: `pins-bench FILE --only digest` prints the same digest (seoul files, when both
  pins-bench binaries are given).

    scripts/dev/identity.py --base-commit ee21737 [--sizes 100k,1M] [--cache DIR]
    scripts/dev/identity.py --base-bin /tmp/start/geocluster --base-pins-bench /tmp/start/pins-bench

The new side is this checkout's release build (built first unless --no-build). The base side
is either given binaries or a commit, built once into a temporary worktree. Exit status 0 when
everything is identical, 1 otherwise; each comparison prints one line."""
import argparse, hashlib, math, os, pathlib, shutil, subprocess, sys, tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
SIZES = {'10k': 10_000, '100k': 100_000, '1M': 1_000_000}


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw)


def build(root, products):
    for product in products:
        subprocess.run(['swift', 'build', '-c', 'release', '--static-swift-stdlib', '--product', product],
                       cwd=root, check=True, stdout=subprocess.DEVNULL)
    return root / '.build' / 'release'


def build_base(commit, workdir):
    """The base commit's binaries, built in a worktree of this repository (reused when present)."""
    tree = workdir / f'base-{commit}'
    if not tree.exists():
        run(['git', 'worktree', 'add', '--detach', str(tree), commit], cwd=ROOT)
    products = ['geocluster', 'pins-bench']
    out = build(tree, products)
    return out / 'geocluster', out / 'pins-bench'


def dataset(kind, n, cache, geocluster):
    path = cache / f'{kind}-{n}.csv'
    if path.exists():
        return path
    tmp = path.with_suffix('.tmp.csv')
    if kind in ('seoul', 'world'):
        run([str(geocluster), 'generate', '--scenario', kind, '--count', str(n), '--seed', '1', '-o', str(tmp)])
    else:
        run([sys.executable, str(ROOT / 'scripts/peers/run_peers.py'), '--generate', str(n),
             '--seed', '1', '--input', str(tmp), '--generate-only'])
    tmp.rename(path)
    return path


def cluster(binary, data, threads, out):
    out.mkdir(parents=True, exist_ok=True)
    run([str(binary), 'cluster', str(data), '-o', str(out / 'labels.csv'), '--threads', str(threads),
         '--condensed-tree', str(out / 'ct.csv'), '--mst', str(out / 'mst.csv')])
    return out


def rows(path):
    lines = path.read_text().splitlines()
    return lines[0], sorted(lines[1:])


def mst_weight(path):
    header, body = rows(path)
    column = header.split(',').index('weight')
    return math.fsum(float(line.split(',')[column]) for line in body)


def sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compare_cluster(name, base, new):
    checks = [
        ('labels', sha(base / 'labels.csv') == sha(new / 'labels.csv'), ''),
        ('condensed tree rows', rows(base / 'ct.csv') == rows(new / 'ct.csv'),
         f'{len(rows(new / "ct.csv")[1])} rows'),
        ('MST edges', rows(base / 'mst.csv') == rows(new / 'mst.csv'), ''),
    ]
    wb, wn = mst_weight(base / 'mst.csv'), mst_weight(new / 'mst.csv')
    checks.append(('MST total weight', wb == wn, f'{wn!r} m'))
    for what, same, detail in checks:
        print(f'{"same" if same else "DIFFERENT":9s} {name:28s} {what:20s} {detail}', flush=True)
    return all(same for _, same, _ in checks)


def digest(pins_bench, data):
    line = [l for l in run([str(pins_bench), str(data), '--only', 'digest']).stdout.splitlines()
            if l.startswith('digest')]
    return line[0] if line else '(no digest line)'


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--base-commit')
    ap.add_argument('--base-bin', type=pathlib.Path)
    ap.add_argument('--base-pins-bench', type=pathlib.Path)
    ap.add_argument('--sizes', default='100k,1M')
    ap.add_argument('--threads', default='1,2')
    ap.add_argument('--cache', type=pathlib.Path, default=pathlib.Path(tempfile.gettempdir()) / 'geocluster-identity')
    ap.add_argument('--no-build', action='store_true', help='use the existing release build of this checkout')
    args = ap.parse_args()
    if bool(args.base_commit) == bool(args.base_bin):
        ap.error('give exactly one of --base-commit and --base-bin')
    args.cache.mkdir(parents=True, exist_ok=True)
    new_dir = ROOT / '.build' / 'release' if args.no_build else build(ROOT, ['geocluster', 'pins-bench'])
    new_bin, new_pins = new_dir / 'geocluster', new_dir / 'pins-bench'
    if args.base_commit:
        base_bin, base_pins = build_base(args.base_commit, args.cache)
    else:
        base_bin, base_pins = args.base_bin, args.base_pins_bench
    ok = True
    for size in args.sizes.split(','):
        n = SIZES[size]
        for kind in ('seoul', 'distinct', 'world'):
            data = dataset(kind, n, args.cache, new_bin)
            for threads in args.threads.split(','):
                name = f'{kind}-{size} threads={threads}'
                work = args.cache / 'runs' / f'{kind}-{size}-t{threads}'
                base = cluster(base_bin, data, threads, work / 'base')
                new = cluster(new_bin, data, threads, work / 'new')
                ok &= compare_cluster(name, base, new)
                shutil.rmtree(work)
            if kind == 'seoul' and base_pins and new_pins.exists():
                db, dn = digest(base_pins, data), digest(new_pins, data)
                print(f'{"same" if db == dn else "DIFFERENT":9s} {kind + "-" + size:28s} {"pins digest":20s} {dn}', flush=True)
                ok &= db == dn
    print('identical' if ok else 'DIFFERENCES FOUND')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
