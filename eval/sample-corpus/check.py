#!/usr/bin/env python3
"""Check the generated sample corpus (standard library only).

    python3 eval/sample-corpus/check.py

Verifies that urls.tsv, expected.tsv, queries/sample.tsv and eval/sample.qrels
agree with the pages on disk; parses every page with html.parser; checks the
encodings (GBK without any declaration, GB2312 declared, UTF-8); checks the
replica groups, the hub and image pages, and that every query has a unique
best answer. Exits non-zero on any error.
"""
import collections
import os
import re
import sys
from html.parser import HTMLParser
from urllib.parse import urljoin

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PAGES = os.path.join(HERE, 'pages')

VOID = {'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr'}
OPTIONAL_END = {'p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'thead', 'tbody', 'option'}
errors = []


def error(msg):
    errors.append(msg)


class Page(HTMLParser):
    """Collects what the checks need: text outside script/style, title, h1, img, links."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.problems = [], []
        self.text, self.title, self.h1 = [], '', []
        self.imgs, self.links, self.meta = [], [], {}
        self._skip = 0
        self._in = collections.Counter()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ('script', 'style'):
            self._skip += 1
        if tag == 'img':
            self.imgs.append(a)
            if a.get('alt'):
                self.text.append(a['alt'])
        if tag == 'a' and a.get('href'):
            self.links.append(a['href'])
        if tag == 'meta' and a.get('name'):
            self.meta[a['name'].lower()] = a.get('content', '')
        if tag not in VOID:
            self.stack.append(tag)
            self._in[tag] += 1

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in ('script', 'style'):
            self._skip -= 1
        if tag in VOID:
            return
        if tag not in self.stack:
            self.problems.append('stray </%s>' % tag)
            return
        while self.stack and self.stack[-1] != tag:
            t = self.stack.pop()
            self._in[t] -= 1
            if t not in OPTIONAL_END:
                self.problems.append('<%s> closed by </%s>' % (t, tag))
        self.stack.pop()
        self._in[tag] -= 1

    def handle_data(self, data):
        if self._skip:
            return
        if self._in['title']:
            self.title += data
        if self._in['h1']:
            self.h1.append(data)
        self.text.append(data)


def read_tsv(path, header=False):
    with open(path, encoding='utf-8') as f:
        rows = [line.rstrip('\n').split('\t') for line in f if line.strip()]
    return (rows[0], rows[1:]) if header else rows


def stem(w):
    for suf, rep in (('ies', 'y'), ('sses', 'ss'), ('es', ''), ('s', '')):
        if w.endswith(suf) and len(w) > len(suf) + 2:
            return w[:-len(suf)] + rep
    return w


def main():
    urls = read_tsv(os.path.join(HERE, 'pages', 'urls.tsv'))
    path_of = {u: p for p, u in urls}
    url_of = {p: u for p, u in urls}
    if len(path_of) != len(urls) or len(url_of) != len(urls):
        error('duplicate paths or URLs in urls.tsv')
    on_disk = set()
    for root, _, files in os.walk(PAGES):
        for f in files:
            if f == 'urls.tsv' and root == PAGES:
                continue
            on_disk.add(os.path.relpath(os.path.join(root, f), PAGES).replace(os.sep, '/'))
    for p in set(url_of) - on_disk:
        error('urls.tsv path missing on disk: ' + p)
    for p in on_disk - set(url_of):
        error('page not in urls.tsv: ' + p)
    for u in path_of:
        host = re.match(r'https?://([^/]+)', u).group(1)
        if not host.endswith('.example'):
            error('host not .example: ' + u)

    header, exp = read_tsv(os.path.join(HERE, 'expected.tsv'), header=True)
    if header != ['url', 'site', 'type', 'lang', 'encoding', 'replica_of', 'replica_kind', 'title']:
        error('bad expected.tsv header')
    exp = {r[0]: dict(zip(header, r)) for r in exp}
    if set(exp) != set(path_of):
        error('expected.tsv and urls.tsv list different URLs')

    # -- parse every page ------------------------------------------------------
    raw, parsed = {}, {}
    for url, e in sorted(exp.items()):
        path = path_of[url]
        data = open(os.path.join(PAGES, path), 'rb').read()
        raw[url] = data
        enc = e['encoding']
        try:
            text = data.decode(enc)
        except UnicodeDecodeError as ex:
            error('%s does not decode as %s: %s' % (path, enc, ex))
            continue
        if enc in ('gbk', 'gb2312'):
            try:
                data.decode('utf-8')
                error('%s is valid UTF-8 although it should be %s' % (path, enc))
            except UnicodeDecodeError:
                pass
        if data.startswith(b'\xef\xbb\xbf') or data.startswith(b'\xff\xfe'):
            error('%s has a BOM' % path)
        low = data.lower()
        if enc == 'gbk' and b'charset' in low:
            error('%s (GBK) mentions a charset' % path)
        if enc == 'gb2312' and b'charset=gb2312' not in low:
            error('%s lacks its gb2312 declaration' % path)
        if enc == 'utf-8' and b'charset=utf-8' not in low and b'charset="utf-8"' not in low:
            error('%s lacks a utf-8 declaration' % path)
        pg = Page()
        pg.feed(text)
        pg.close()
        if pg.problems:
            error('%s: markup problems: %s' % (path, '; '.join(pg.problems[:3])))
        if not pg.h1:
            error('%s has no <h1>' % path)
        pg.plain = ' '.join(' '.join(pg.text).split())
        parsed[url] = pg

    # -- replicas --------------------------------------------------------------
    def comp_key(p):
        return [s.encode('utf-8') for s in p.split('/')]
    groups = collections.defaultdict(list)
    for url, e in exp.items():
        if e['replica_of']:
            o = e['replica_of']
            if o not in exp or exp[o]['replica_of']:
                error('replica_of must point at an original: ' + url)
                continue
            groups[o].append((url, e['replica_kind']))
            po, pc = path_of[o], path_of[url]
            if not (po.encode() < pc.encode() and comp_key(po) < comp_key(pc)):
                error('original does not sort first: %s vs %s' % (po, pc))
            same = raw[o] == raw[url]
            if e['replica_kind'] == 'exact' and not same:
                error('exact replica differs: ' + pc)
            if e['replica_kind'] == 'near' and same:
                error('near replica is identical: ' + pc)
            if e['type'] != exp[o]['type']:
                error('replica of a different type: ' + pc)

    # -- per-site template statistics, hubs and image pages ----------------------
    by_site = collections.defaultdict(list)
    for url, e in exp.items():
        by_site[e['site']].append(url)
    for site, site_urls in by_site.items():
        if not 20 <= len(site_urls) <= 30:
            error('%s has %d pages' % (site, len(site_urls)))
        alt_df = collections.Counter()
        for u in site_urls:
            alt_df.update({i.get('alt', '') for i in parsed[u].imgs})
        for u in site_urls:
            e, pg = exp[u], parsed[u]
            if e['type'] == 'image':
                content_imgs = [i for i in pg.imgs if i.get('alt') and alt_df[i['alt']] <= 2]
                if not 5 <= len(content_imgs) <= 12:
                    error('%s: %d content images' % (path_of[u], len(content_imgs)))
            if e['type'] == 'hub':
                # distinct links to other pages of the corpus (the hub's list;
                # the sidebar's "Most popular" links are a subset of it)
                targets = ({urljoin(u, h) for h in pg.links} & set(exp)) - {u}
                if not 15 <= len(targets) <= 30:
                    error('%s: %d article links' % (path_of[u], len(targets)))

    # -- queries ---------------------------------------------------------------
    queries = dict(read_tsv(os.path.join(REPO, 'queries', 'sample.tsv')))
    qrels = collections.defaultdict(dict)
    with open(os.path.join(REPO, 'eval', 'sample.qrels'), encoding='utf-8') as f:
        for line in f:
            qid, _, url, rel = line.split()
            if url not in exp:
                error('qrels URL not in urls.tsv: ' + url)
            if qid not in queries:
                error('qrels qid without query: ' + qid)
            qrels[qid][url] = int(rel)
    tokens = {u: {stem(w) for w in re.findall(r'[a-z0-9]+', pg.plain.lower())} for u, pg in parsed.items()}
    print('query  hits  target')
    for qid, q in queries.items():
        best = {u for u, r in qrels[qid].items() if r == 2}
        if not best:
            error('query %s has no rel-2 page' % qid)
        if re.search(r'[\u4e00-\u9fff]', q):
            terms = q.split()
            hits = {u for u, pg in parsed.items() if all(t in pg.plain for t in terms)}
            dfs = [sum(t in pg.plain for pg in parsed.values()) for t in terms]
        else:
            terms = [stem(w) for w in re.findall(r'[a-z0-9]+', q.lower())]
            hits = {u for u in parsed if all(t in tokens[u] for t in terms)}
            dfs = [sum(t in tok for tok in tokens.values()) for t in terms]
        if hits != best:
            error('query %s %r: pages with all terms %s, rel-2 pages %s'
                  % (qid, q, sorted(path_of[u] for u in hits), sorted(path_of[u] for u in best)))
        originals = sorted(path_of[u] for u in best if not exp[u]['replica_of'])
        print('%-5s  %4d  %-48s df=%s' % (qid, len(hits), originals[0] if originals else '-', dfs))

    # -- summary -----------------------------------------------------------------
    kinds = collections.Counter((e['site'], e['type']) for e in exp.values())
    total = sum(len(b) for b in raw.values())
    print('pages: %d, bytes: %d' % (len(exp), total))
    for site in sorted(by_site):
        print('  %-14s %s' % (site, ', '.join('%s %d' % (k, kinds[(site, k)]) for k in ('topic', 'hub', 'image'))))
    print('replica groups: %d (%d exact, %d near)' % (
        len(groups), sum(k == 'exact' for g in groups.values() for _, k in g),
        sum(k == 'near' for g in groups.values() for _, k in g)))
    if total >= 3 * 1024 * 1024:
        error('corpus is %d bytes' % total)
    for e in errors:
        print('ERROR:', e)
    print('OK' if not errors else '%d errors' % len(errors))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
