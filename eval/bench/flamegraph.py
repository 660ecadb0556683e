"""A flame graph of an `indexer build` from `perf script` output, as one SVG (Brendan Gregg's
layout: a frame's width is its share of the samples, callers below callees).

    perf record -F 400 --call-graph dwarf,32768 -o perf.data -- \
        taskset -c 0 indexer build ../shared/data/ir-web/cacm/pages.warc.gz --threads 1 --dir /tmp/fg
    perf script -i perf.data > perf.txt
    python3 eval/bench/flamegraph.py perf.txt flamegraph.svg "title"

Generic arguments of Rust names are dropped (`map<…>`) to keep frames readable; frames
narrower than MINW pixels are left out to keep the file small. Hover a frame for its full
share.
"""
import sys, re, html, collections, zlib
def collapse(path):
    counts = collections.Counter(); stack = []; comm = None
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if not line.strip():
            if stack:
                counts[tuple(reversed(stack))] += 1
            stack = []; continue
        if not line.startswith((' ', '\t')):
            comm = line.split()[0]; stack = []; continue
        parts = line.strip().split(None, 1)
        if len(parts) < 2: continue
        sym = parts[1]
        sym = re.sub(r'\s+\(\S*\)$', '', sym)          # drop the DSO
        sym = re.sub(r'\+0x[0-9a-f]+$', '', sym)
        stack.append(sym)
    if stack: counts[tuple(reversed(stack))] += 1
    return counts
def shorten(s):
    # Generic arguments make Rust names unreadable: keep the path, drop <...> contents.
    out, depth = [], 0
    for ch in s:
        if ch == '<': depth += 1; out.append('<') if depth == 1 else None; continue
        if ch == '>':
            depth -= 1
            if depth == 0: out.append('…>')
            continue
        if depth == 0: out.append(ch)
    return ''.join(out).replace(' (inlined)', '')
MINW = 1.5
def main(src, dst, title):
    counts = collapse(src)
    root = {'n': 0, 'c': {}}
    for st, n in counts.items():
        root['n'] += n; node = root
        for f in st:
            f = shorten(f)
            node = node['c'].setdefault(f, {'n': 0, 'c': {}}); node['n'] += n
    W, H, total = 1600, 16, root['n']
    rects = []
    def walk(node, name, x, depth):
        w = node['n'] / total * (W - 20)
        if w < MINW: return
        rects.append((x, depth, w, name, node['n']))
        cx = x
        for k, child in sorted(node['c'].items()):
            walk(child, k, cx, depth + 1); cx += child['n'] / total * (W - 20)
    walk(root, 'all', 10, 0)
    maxd = max(r[1] for r in rects) + 1
    height = maxd * H + 60
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{height}" font-family="monospace" font-size="11">',
         f'<rect width="100%" height="100%" fill="#f8f8f0"/><text x="10" y="20" font-size="15">{html.escape(title)}</text>']
    for x, d, w, name, n in rects:
        y = height - 20 - (d + 1) * H
        h = zlib.crc32(name.encode()) & 0xffff
        color = f'rgb({205 + h % 50},{80 + (h >> 5) % 120},{40 + (h >> 9) % 40})'
        label = html.escape(name)
        o.append(f'<g><title>{label} ({n} samples, {100 * n / total:.2f}%)</title>'
                 f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{H - 1}" fill="{color}"/>')
        chars = int(w / 6.6)
        if chars >= 3:
            t = name if len(name) <= chars else name[:chars - 1] + '…'
            o.append(f'<text x="{x + 2:.1f}" y="{y + 11}">{html.escape(t)}</text>')
        o.append('</g>')
    o.append('</svg>')
    open(dst, 'w').write('\n'.join(o))
    print(len(rects), 'frames', total, 'samples')
main(sys.argv[1], sys.argv[2], sys.argv[3])
