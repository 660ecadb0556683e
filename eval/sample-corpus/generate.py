#!/usr/bin/env python3
"""Regenerate the embedded sample web corpus.

Reads the article texts in eval/sample-corpus/articles/<site>.txt and writes

  eval/sample-corpus/pages/<site>/...html   the HTML pages, one template per site
  eval/sample-corpus/pages/urls.tsv         <path under pages/> TAB <url>
  eval/sample-corpus/expected.tsv           ground truth for every page
  queries/sample.tsv                        qid TAB query
  eval/sample.qrels                         TREC qrels

Standard library only. The output is deterministic: no clock, no randomness;
"random looking" numbers (view counts, times of day, ids) come from a hash of
the article id. Run from the repository root:

    python3 eval/sample-corpus/generate.py

Then `python3 eval/sample-corpus/check.py` verifies the result.
"""
import copy
import datetime
import hashlib
import html
import json
import os
import re
import shutil
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
ARTICLES = os.path.join(HERE, 'articles')
PAGES = os.path.join(HERE, 'pages')

# ---------------------------------------------------------------------------
# Sites
# ---------------------------------------------------------------------------

SITES = {
    # name: display name, host: scheme + host, lang: en|zh, enc: bytes on disk
    'chenbao':       dict(name='晨报', host='https://www.chenbao.example', lang='zh', enc='utf-8'),
    'crumbandcrust': dict(name='Crumb & Crust', host='https://crumbandcrust.example', lang='en', enc='utf-8'),
    'healthcircle':  dict(name='HealthCircle', host='https://community.healthcircle.example', lang='en', enc='utf-8'),
    'kepu':          dict(name='科普园', host='http://www.kepu.example', lang='zh', enc='gb2312'),
    'lumenframe':    dict(name='Lumenframe', host='https://lumenframe.example', lang='en', enc='utf-8'),
    'marlow':        dict(name='Marlow University', host='http://www.marlow-uni.example', lang='en', enc='utf-8'),
    'techwire':      dict(name='TechWire', host='https://www.techwire.example', lang='en', enc='utf-8'),
    'wanderlane':    dict(name='Wanderlane', host='https://www.wanderlane.example', lang='en', enc='utf-8'),
    'wenyuan':       dict(name='文苑', host='http://www.wenyuan.example', lang='zh', enc='gbk'),
}

# ---------------------------------------------------------------------------
# Article files
# ---------------------------------------------------------------------------


@dataclass
class Doc:
    site: str
    id: str
    kind: str            # topic | image
    title: str
    htmltitle: str       # non-empty: a generic <title> such as "Untitled Document"
    author: str
    date: datetime.date
    section: str
    summary: str
    intro: str
    blocks: list         # ('p', text) ('h', text) ('img', file, alt, caption) ('reply', user, text)


def parse_site(site):
    """Parse articles/<site>.txt into a list of Doc, in file order."""
    with open(os.path.join(ARTICLES, site + '.txt'), encoding='utf-8') as f:
        text = f.read()
    docs = []
    for chunk in re.split(r'^@@@ ', text, flags=re.M)[1:]:
        lines = chunk.rstrip('\n').split('\n')
        doc_id = lines[0].strip()
        hdr, i = {}, 1
        while i < len(lines) and lines[i].strip():
            key, value = lines[i].split(':', 1)
            hdr[key.strip()] = value.strip()
            i += 1
        blocks, para = [], []

        def flush():
            if para:
                blocks.append(('p', ' '.join(para)))
                para.clear()
        for line in lines[i:]:
            line = line.rstrip()
            if not line:
                flush()
            elif line.startswith('## '):
                flush()
                blocks.append(('h', line[3:].strip()))
            elif line.startswith('img: '):
                flush()
                file_, alt, cap = [x.strip() for x in line[5:].split('|')]
                blocks.append(('img', file_, alt, cap))
            elif line.startswith('>> '):
                flush()
                user, said = line[3:].split(': ', 1)
                blocks.append(('reply', user.strip(), said.strip()))
            else:
                para.append(line.strip())
        flush()
        docs.append(Doc(site=site, id=doc_id, kind=hdr.get('kind', 'topic'), title=hdr['title'],
                        htmltitle=hdr.get('htmltitle', ''), author=hdr['author'],
                        date=datetime.date.fromisoformat(hdr['date']), section=hdr['section'],
                        summary=hdr['summary'], intro=hdr.get('intro', ''), blocks=blocks))
    return docs


# ---------------------------------------------------------------------------
# Small helpers shared by the templates
# ---------------------------------------------------------------------------

EMPH = re.compile(r'\*\*(.+?)\*\*')
MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July',
          'August', 'September', 'October', 'November', 'December']


def esc(s):
    """Escape text content."""
    return html.escape(s, quote=False)


def attr(s):
    """Escape an attribute value (double-quoted)."""
    return html.escape(plain(s), quote=True).replace('&#x27;', "'")


def plain(s):
    """Drop the **emphasis** markers."""
    return EMPH.sub(r'\1', s)


def inline(s, tag='strong'):
    """Escape text and turn **x** into <tag>x</tag>."""
    return EMPH.sub(lambda m: '<%s>%s</%s>' % (tag, m.group(1), tag.split()[0]), esc(s))


def num(key, lo, hi):
    """A stable pseudo-random integer in [lo, hi] derived from key."""
    v = int(hashlib.md5(key.encode('utf-8')).hexdigest()[:8], 16)
    return lo + v % (hi - lo + 1)


def clock(key):
    """A stable time of day, e.g. '08:35'."""
    return '%02d:%02d' % (num(key + 'h', 6, 21), num(key + 'm', 0, 11) * 5)


def short_title(title, lang):
    """A short anchor text for archive-style hub pages."""
    if lang == 'zh':
        for sep in ('：', ' '):
            if sep in title:
                return title.split(sep)[0]
        return title
    if ':' in title and len(title.split(':')[0].split()) >= 2:
        return title.split(':')[0]
    words = title.split()
    return title if len(words) <= 7 else ' '.join(words[:6]) + '…'


def month_name(d):
    return '%s %d' % (MONTHS[d.month - 1], d.year)


# ---------------------------------------------------------------------------
# Pages
# ---------------------------------------------------------------------------


@dataclass
class Page:
    site: str
    path: str                   # relative to pages/<site>/
    url: str
    kind: str                   # topic | hub | image
    doc: Doc = None             # topic and image pages
    hub: dict = None            # hub pages: title, groups, intro
    replica_of: 'Page' = None   # the original this page replicates
    replica_kind: str = ''      # exact | near
    origin_site: str = ''       # syndicated copies: the site that first published the text
    edit: str = ''              # syndicated copies: what the editor changed
    section: str = ''           # section used by this site (syndicated copies get a new one)
    extra: dict = field(default_factory=dict)

    @property
    def relpath(self):
        return self.site + '/' + self.path

    @property
    def title(self):
        return self.doc.title if self.doc else self.hub['title']

    @property
    def lang(self):
        return SITES[self.site]['lang']

    @property
    def encoding(self):
        return SITES[self.site]['enc']

    @property
    def date(self):
        return self.doc.date if self.doc else None


def article_location(site, doc, section, aid):
    """(path under pages/<site>/, path part of the URL) for an article or gallery."""
    d = doc.date
    if site == 'techwire':
        sub = 'gallery' if doc.kind == 'image' else 'news'
        return '%s/%s.html' % (sub, aid), '/%s/%s.html' % (sub, aid)
    if site == 'crumbandcrust':
        return '%d/%02d/%s.html' % (d.year, d.month, aid), '/%d/%02d/%s/' % (d.year, d.month, aid)
    if site == 'marlow':
        return 'science/%s/%s.html' % (section, aid), '/science/%s/%s.htm' % (section, aid)
    if site == 'wanderlane':
        sub = 'photo-stories' if doc.kind == 'image' else section
        return '%s/%s.html' % (sub, aid), '/%s/%s/' % (sub, aid)
    if site == 'healthcircle':
        return 't/%s.html' % aid, '/t/%s/%d' % (aid, num('hc' + aid, 3000, 9999))
    if site == 'lumenframe':
        sub = 'gallery' if doc.kind == 'image' else 'journal'
        return '%s/%s.html' % (sub, aid), '/%s/%s' % (sub, aid)
    if site == 'chenbao':
        return '%s/%s.html' % (section, aid), '/%s/%s/t%s_%s.html' % (
            section, d.strftime('%Y%m'), d.strftime('%Y%m%d'), aid)
    if site == 'wenyuan':
        return 'article/%s.html' % aid, '/article/%s.html' % aid
    if site == 'kepu':
        return '%s/%s.html' % (section, aid), '/%s/%s.shtml' % (section, aid)
    raise ValueError(site)


# Exact replicas: byte-identical copies at a second path. The copy's path must
# sort after the original's (the indexer keeps the first page in path order).
EXACT_COPIES = [
    # (site, article id, copy path, copy URL path)
    ('techwire', 'sodium-battery', 'print/sodium-battery.html', '/print/sodium-battery.html'),
    ('marlow', 'arctic-terns', 'zoology/news/arctic-terns.html', '/zoology/news/arctic-terns.htm'),
    ('lumenframe', 'birch-first-snow', 'series/winter/birch-first-snow.html', '/series/winter/birch-first-snow'),
    ('wenyuan', '1075', 'print/1075.html', '/print.php?id=1075'),
]

# Near replicas: an article republished by a second site in that site's own
# template. The original site's name sorts before the copy's, so the original
# path sorts first. About half are lightly edited.
SYNDICATED = [
    # (original site, id, copy site, copy id, copy section, edit)
    ('marlow', 'student-seismometers', 'techwire', 'student-seismometers', 'science', None),
    ('lumenframe', 'film-revival', 'techwire', 'film-revival', 'hardware', None),
    ('crumbandcrust', 'buckwheat-galettes', 'wanderlane', 'buckwheat-galettes', 'europe',
     ('sentence', "Serve with a bowl of dry cider, as they do in Breton crêperies.",
      "In the crêperies of Rennes and Quimper they come with dry cider, poured into a ceramic bowl rather than a glass.")),
    ('lumenframe', 'milky-way-photography', 'wanderlane', 'milky-way-photography', 'skills', None),
    ('crumbandcrust', 'kimchi-beginners', 'healthcircle', 'kimchi-at-home', 'digestive',
     ('prepend', "Reposting this beginner guide from the Crumb & Crust blog because a few of you asked "
                 "how I make the fermented veg I keep mentioning. Full credit to them:")),
    ('chenbao', 'yangtze-finless-porpoise', 'kepu', '3190', 'biology',
     ('prepend', '编者按：江豚是长江里的“微笑天使”。本文转载自《晨报》，供读者了解禁渔后长江生态的变化。')),
    ('chenbao', 'museum-night', 'wenyuan', '1115', 'news', ('drop', 2)),
    ('kepu', '3123', 'wenyuan', '1121', 'technology', None),
]

# Authors of syndicated copies where the copy site shows someone else.
COPY_AUTHOR = {('healthcircle', 'kimchi-at-home'): 'brine_and_bubbles'}


def apply_edit(doc, edit):
    """Return a copy of doc with a light editorial change applied."""
    d = copy.deepcopy(doc)
    if edit is None:
        return d, ''
    kind = edit[0]
    if kind == 'drop':
        paras = [i for i, b in enumerate(d.blocks) if b[0] == 'p']
        del d.blocks[paras[edit[1]]]
        return d, 'paragraph %d dropped' % (edit[1] + 1)
    if kind == 'sentence':
        old, new = edit[1], edit[2]
        for i, b in enumerate(d.blocks):
            if b[0] == 'p' and old in b[1]:
                d.blocks[i] = ('p', b[1].replace(old, new))
                return d, 'one sentence rewritten'
        raise ValueError('sentence not found: ' + old)
    if kind == 'prepend':
        d.blocks.insert(0, ('p', edit[1]))
        return d, "editor's note added"
    raise ValueError(kind)


# "Most popular" boxes: a fixed list per site, shown on every page of the site.
POPULAR = {
    'techwire': ['undersea-cable', 'e-ink-tablet', 'database-license', 'thermostat-update', 'voice-clone-scam'],
    'crumbandcrust': ['cast-iron-seasoning', 'red-lentil-dal', 'risotto-stirring', 'soft-boiled-eggs', 'whetstone-sharpening'],
    'marlow': ['bumblebee-navigation', 'refractor-restored', 'biochar-trial', 'helium-free-magnet', 'knot-invariants-prize'],
    'wanderlane': ['everest-acclimatisation', 'night-train-vienna-rome', 'kyoto-moss-gardens', 'fes-medina', 'scottish-bothies'],
    'healthcircle': ['ferritin-vegetarian', 'migraine-diary', 'gout-first-attack', 'bp-cuff-size', 'night-shift-sleep'],
    'lumenframe': ['long-exposure-seascapes', 'golden-and-blue-hour', 'street-photography-consent', 'window-light-portraits', 'neon-after-rain'],
    'chenbao': ['elevator-retrofit', 'intercity-railway', 'elderly-canteen', 'desert-solar', 'express-packaging'],
    'wenyuan': ['1023', '1042', '1081', '1097', '1103'],
    'kepu': ['3101', '3107', '3129', '3151', '3162'],
}

# ---------------------------------------------------------------------------
# Queries: each has one best answer (the target and its replicas, rel 2),
# built from words of the target's body that the templates, hub pages and
# other articles do not all share. rel 1 marks clearly related pages.
# ---------------------------------------------------------------------------

QUERIES = [
    ('q01', 'sodium-ion battery coconut shell anode', ('techwire', 'sodium-battery'), []),
    ('q02', 'logical qubit surface code parity', ('techwire', 'quantum-chip'), []),
    ('q03', 'master password key derivation iterations offline', ('techwire', 'password-manager-breach'), []),
    ('q04', 'film camera revival half-frame emulsion', ('lumenframe', 'film-revival'), []),
    ('q05', 'student seismometers magnet coil earthquake', ('marlow', 'student-seismometers'), []),
    ('q06', 'lichens nitrogen dioxide ring road', ('marlow', 'lichen-air-quality'), []),
    ('q07', 'topological insulators bismuth selenide', ('marlow', 'seminar-topological'), []),
    ('q08', 'arctic tern geolocators Weddell Sea', ('marlow', 'arctic-terns'), []),
    ('q09', 'Vatnajokull glacier melt silt layers', ('marlow', 'vatnajokull-field-season'),
     [('marlow', 'field-season-photos')]),
    ('q10', 'buckwheat galette batter overnight cider', ('crumbandcrust', 'buckwheat-galettes'), []),
    ('q11', 'kimchi napa cabbage gochugaru', ('crumbandcrust', 'kimchi-beginners'), []),
    ('q12', 'plantar fasciitis towel stretch frozen bottle', ('healthcircle', 'plantar-fasciitis'), []),
    ('q13', 'light box lux seasonal affective disorder', ('healthcircle', 'light-box-sad'), []),
    ('q14', 'milky way focal length star trails', ('lumenframe', 'milky-way-photography'),
     [('lumenframe', 'moor-night-skies')]),
    ('q15', 'cyanotype ferric ammonium citrate', ('lumenframe', 'cyanotype-printing'),
     [('lumenframe', 'cyanotype-botanicals')]),
    ('q16', 'Kandy Ella train Nine Arch Bridge', ('wanderlane', 'sri-lanka-tea-train'), []),
    ('q17', 'birch trunks red squirrel snow', ('lumenframe', 'birch-first-snow'), []),
    ('q18', '屋顶 绿化 佛甲草', ('chenbao', 'roof-greening'), []),
    ('q19', '江豚 禁渔 晴雨表', ('chenbao', 'yangtze-finless-porpoise'), []),
    ('q20', '博物馆 夜场 兽面纹', ('chenbao', 'museum-night'), []),
    ('q21', '地震 预警 纵波 横波', ('kepu', '3123'), []),
    ('q22', '都江堰 李冰 岁修', ('wenyuan', '1075'), []),
    ('q23', '紫砂壶 包浆 身筒', ('wenyuan', '1064'), []),
    ('q24', '萤火虫 发光 求偶', ('kepu', '3118'), []),
    ('q25', '榫卯 应县木塔', ('wenyuan', '1053'), [('wenyuan', '1110')]),
]

SECTION_LABELS = {
    'techwire': {'hardware': 'Hardware', 'science': 'Science', 'networks': 'Networks', 'reviews': 'Reviews',
                 'security': 'Security', 'software': 'Software', 'smart-home': 'Smart home',
                 'policy': 'Policy', 'transport': 'Transport'},
    'crumbandcrust': {'baking': 'Baking', 'preserving': 'Preserving', 'kitchen-kit': 'Kitchen kit',
                      'weeknight': 'Weeknight dinners', 'weekend-projects': 'Weekend projects'},
    'marlow': {'news': 'News', 'seminars': 'Seminars', 'teaching': 'Teaching', 'photos': 'Photographs'},
    'wanderlane': {'europe': 'Europe', 'asia': 'Asia', 'americas': 'Americas', 'africa': 'Africa',
                   'skills': 'Travel skills'},
    'healthcircle': {'muscles-joints': 'Muscles & Joints', 'nutrition': 'Nutrition', 'ears-eyes': 'Ears & Eyes',
                     'digestive': 'Digestive Health', 'neurology': 'Neurology', 'vaccines': 'Vaccines',
                     'mental-health': 'Mental Health', 'arthritis': 'Arthritis', 'heart': 'Heart & Circulation',
                     'allergies': 'Allergies', 'sleep': 'Sleep', 'skin': 'Skin', 'kidneys': 'Kidneys & Urology',
                     'fitness': 'Fitness'},
    'lumenframe': {'essays': 'Essays', 'techniques': 'Techniques', 'darkroom': 'Darkroom',
                   'reviews': 'Reviews', 'gallery': 'Gallery'},
    'chenbao': {'society': '社会', 'environment': '环境', 'transport': '交通', 'economy': '经济',
                'agriculture': '农业', 'education': '教育', 'energy': '能源', 'culture': '文化',
                'sports': '体育', 'photo': '图片'},
    'wenyuan': {'history': '历史', 'folk': '民俗', 'craft': '工艺', 'music': '音乐',
                'science-history': '科技史', 'technology': '科技', 'opera': '戏曲', 'news': '资讯'},
    'kepu': {'astronomy': '天文', 'physics': '物理', 'biology': '生物', 'earth': '地球',
             'life': '生活', 'photo': '图说'},
}


def section_label(site, sec):
    return SECTION_LABELS[site].get(sec, sec)


class Corpus:
    """All pages of the corpus and the relations between them."""

    def __init__(self):
        self.docs = {site: parse_site(site) for site in SITES}
        self.pages = []
        self.by_key = {}    # (site, article id) -> the article's page on that site
        self._articles()
        self._exact_copies()
        self._syndicated()
        self._hubs()
        self.pages.sort(key=lambda p: p.relpath.encode('utf-8'))

    def add(self, page):
        self.pages.append(page)
        return page

    def url(self, site, upath):
        return SITES[site]['host'] + upath

    def _articles(self):
        for site, docs in self.docs.items():
            for doc in docs:
                path, upath = article_location(site, doc, doc.section, doc.id)
                page = self.add(Page(site, path, self.url(site, upath), doc.kind, doc=doc, section=doc.section))
                self.by_key[(site, doc.id)] = page

    def _exact_copies(self):
        for site, aid, cpath, cupath in EXACT_COPIES:
            orig = self.by_key[(site, aid)]
            self.add(Page(site, cpath, self.url(site, cupath), orig.kind, doc=orig.doc,
                          replica_of=orig, replica_kind='exact', section=orig.section))

    def _syndicated(self):
        for osite, oid, csite, cid, csec, edit in SYNDICATED:
            orig = self.by_key[(osite, oid)]
            doc, what = apply_edit(orig.doc, edit)
            doc.site, doc.id, doc.section = csite, cid, csec
            doc.date = orig.doc.date + datetime.timedelta(days=3)
            doc.author = COPY_AUTHOR.get((csite, cid), doc.author)
            path, upath = article_location(csite, doc, csec, cid)
            page = self.add(Page(csite, path, self.url(csite, upath), doc.kind, doc=doc, replica_of=orig,
                                 replica_kind='near', origin_site=osite, edit=what or 'unchanged text',
                                 section=csec))
            self.by_key[(csite, cid)] = page

    # -- hub pages ----------------------------------------------------------

    def articles(self, site):
        """Articles and galleries of a site (no exact copies), newest first."""
        arts = [p for p in self.pages if p.site == site and p.doc and p.replica_kind != 'exact']
        return sorted(arts, key=lambda p: (-p.date.toordinal(), p.path))

    def _hub(self, site, path, upath, title, groups, intro=''):
        groups = [g for g in groups if g['pages']]
        self.add(Page(site, path, self.url(site, upath), 'hub', section='',
                      hub=dict(title=title, groups=groups, intro=intro)))

    @staticmethod
    def group(heading, pages, teaser=False, short=False):
        return dict(heading=heading, pages=list(pages), teaser=teaser, short=short)

    def primary_and_more(self, site, pred, heading, more_heading, total):
        arts = self.articles(site)
        first = [p for p in arts if pred(p)]
        more = [p for p in arts if not pred(p)][:max(0, total - len(first))]
        return [self.group(heading, first, teaser=True), self.group(more_heading, more, short=True)]

    def by_month(self, site, fmt):
        groups, current = [], None
        for p in self.articles(site):
            label = fmt(p.date)
            if label != current:
                groups.append(self.group(label, [], short=True))
                current = label
            groups[-1]['pages'].append(p)
        return groups

    def by_section(self, site, short=True):
        arts = self.articles(site)
        return [self.group(label, [p for p in arts if p.section == sec], short=short)
                for sec, label in SECTION_LABELS[site].items()]

    def _hubs(self):
        G, pm = self.group, self.primary_and_more
        a = self.articles

        s = 'techwire'
        self._hub(s, 'index.html', '/', 'TechWire: technology news and analysis',
                  [G('Top stories', a(s)[:5], teaser=True), G('Latest', a(s)[5:])])
        self._hub(s, 'section/security.html', '/section/security.html', 'Security',
                  pm(s, lambda p: p.section == 'security', 'Security', 'More from TechWire', 18))
        self._hub(s, 'section/hardware.html', '/section/hardware.html', 'Hardware',
                  pm(s, lambda p: p.section == 'hardware', 'Hardware', 'More from TechWire', 18))
        self._hub(s, 'archive/2024.html', '/archive/2024/', 'Archive: 2024',
                  self.by_month(s, month_name))

        s = 'crumbandcrust'
        self._hub(s, 'index.html', '/', 'Crumb & Crust: home cooking, slowly',
                  [G('Latest recipes', a(s), teaser=True)])
        self._hub(s, 'category/baking.html', '/category/baking/', 'Category: Baking',
                  pm(s, lambda p: p.section == 'baking', 'Baking', 'More from the kitchen', 16))
        self._hub(s, 'recipe-index.html', '/recipe-index/', 'Recipe index', self.by_section(s))

        s = 'marlow'
        self._hub(s, 'science/index.html', '/science/', 'Faculty of Natural Sciences: News and Events',
                  [G('Latest news', [p for p in a(s) if p.section == 'news'][:6], teaser=True),
                   G('More news', [p for p in a(s) if p.section == 'news'][6:], short=True),
                   G('Seminars and teaching', [p for p in a(s) if p.section in ('seminars', 'teaching')]),
                   G('Photographs', [p for p in a(s) if p.section == 'photos'])])
        self._hub(s, 'science/news/index.html', '/science/news/', 'News Archive',
                  self.by_month(s, lambda d: str(d.year)))
        self._hub(s, 'science/seminars/index.html', '/science/seminars/', 'Departmental Seminars',
                  pm(s, lambda p: p.section == 'seminars', 'Seminars this term', 'Faculty news', 16))

        s = 'wanderlane'
        self._hub(s, 'index.html', '/', 'Wanderlane: travel stories for slow journeys',
                  [G('Latest stories', a(s), teaser=True)])
        self._hub(s, 'europe/index.html', '/europe/', 'Europe',
                  pm(s, lambda p: p.section == 'europe' or (p.doc.kind == 'image' and p.doc.section == 'europe'),
                     'Europe', 'Elsewhere in the world', 17))
        self._hub(s, 'destinations.html', '/destinations/', 'All destinations',
                  [G('Photo stories', [p for p in a(s) if p.kind == 'image'], short=True)] +
                  [G(g['heading'], [p for p in g['pages'] if p.kind != 'image'], short=True)
                   for g in self.by_section(s)])

        s = 'healthcircle'
        self._hub(s, 'index.html', '/', 'HealthCircle Community', [G('Latest topics', a(s), teaser=True)])
        self._hub(s, 'latest.html', '/latest', 'Latest topics', [G('Latest', a(s))])
        self._hub(s, 'c/muscles-joints.html', '/c/muscles-joints/7', 'Muscles & Joints',
                  pm(s, lambda p: p.section == 'muscles-joints', 'Muscles & Joints', 'Suggested topics', 15))

        s = 'lumenframe'
        journal = [p for p in a(s) if p.kind == 'topic']
        galleries = [p for p in a(s) if p.kind == 'image']
        self._hub(s, 'index.html', '/', 'Lumenframe: a journal of photography',
                  [G('From the journal', journal, teaser=True), G('Galleries', galleries, teaser=True)])
        self._hub(s, 'journal/index.html', '/journal', 'Journal',
                  [G('All journal posts', journal, teaser=True), G('Recent galleries', galleries[:4])])
        self._hub(s, 'gallery/index.html', '/gallery', 'Galleries',
                  [G('Galleries', galleries, teaser=True), G('From the journal', journal[:8])])
        self._hub(s, 'authors/jonah-reyes.html', '/authors/jonah-reyes', 'Jonah Reyes',
                  pm(s, lambda p: p.doc.author == 'Jonah Reyes', 'Work by Jonah Reyes', 'Also on Lumenframe', 16))

        s = 'chenbao'
        self._hub(s, 'index.html', '/', '晨报网', [G('要闻', a(s)[:6], teaser=True), G('最新报道', a(s)[6:])])
        self._hub(s, 'society/index.html', '/society/', '社会',
                  pm(s, lambda p: p.section == 'society', '社会新闻', '更多新闻', 16))
        self._hub(s, 'environment/index.html', '/environment/', '环境',
                  pm(s, lambda p: p.section == 'environment', '生态环境', '更多新闻', 15))
        self._hub(s, 'roll.html', '/roll.html', '滚动新闻',
                  self.by_month(s, lambda d: '%d年%d月' % (d.year, d.month)))

        s = 'wenyuan'
        self._hub(s, 'index.html', '/', '文苑', [G('最新文章', a(s), teaser=True)])
        self._hub(s, 'list/craft.html', '/list/craft.html', '传统工艺',
                  pm(s, lambda p: p.section == 'craft', '工艺', '更多文章', 16))
        self._hub(s, 'list/all.html', '/list/all.html', '文章总目', self.by_section(s))

        s = 'kepu'
        self._hub(s, 'index.html', '/', '科普园', [G('最新文章', a(s), teaser=True)])
        self._hub(s, 'biology/index.html', '/biology/', '生物世界',
                  pm(s, lambda p: p.section == 'biology', '生物', '最新文章', 16))
        self._hub(s, 'sitemap.html', '/sitemap.html', '全部文章', self.by_section(s))

    # -- lookups used by templates -------------------------------------------

    def popular(self, site):
        return [self.by_key[(site, i)] for i in POPULAR[site]]

    def related(self, page, n=3):
        """Up to n other articles of the same site, same section first."""
        arts = [p for p in self.articles(page.site) if p.doc and p.doc.id != page.doc.id]
        same = [p for p in arts if p.section == page.section]
        rest = [p for p in arts if p.section != page.section]
        return (same + rest)[:n]

    def archive_months(self, site, n=8):
        seen = []
        for p in self.articles(site):
            m = (p.date.year, p.date.month)
            if m not in seen:
                seen.append(m)
        return sorted(seen, reverse=True)[:n]


def href(src, dst):
    """Link from page src to page dst: root-relative on the same site, absolute otherwise."""
    if src.site == dst.site:
        return dst.url[len(SITES[dst.site]['host']):]
    return dst.url


def anchor(g, p):
    return short_title(p.title, p.lang) if g['short'] else p.title


def body_html(doc, p='<p>{}</p>', h='<h2>{}</h2>', em='strong', skip=('img', 'reply')):
    """Render the article body with per-site markup for paragraphs and subheadings."""
    out = []
    for b in doc.blocks:
        if b[0] in skip:
            continue
        if b[0] == 'p':
            out.append(p.format(inline(b[1], em)))
        elif b[0] == 'h':
            out.append(h.format(esc(b[1])))
    return out


def images(doc):
    return [b for b in doc.blocks if b[0] == 'img']


# ===========================================================================
# TechWire: HTML5 news site, BEM class names, JSON-LD, consent banner.
# ===========================================================================

TW_NAV = [('News', '/news/'), ('Hardware', '/section/hardware.html'), ('Software', '/section/software.html'),
          ('Security', '/section/security.html'), ('Networks', '/section/networks.html'),
          ('Science', '/section/science.html'), ('Smart home', '/section/smart-home.html'),
          ('Policy', '/section/policy.html'), ('Reviews', '/section/reviews.html'),
          ('Transport', '/section/transport.html'), ('Podcast', '/podcast/'), ('Newsletters', '/newsletters/')]
TW_TAGS = ['batteries', 'chips', 'cloud', 'cybersecurity', 'displays', 'firmware', 'open source',
           'privacy', 'repair', 'satellites', 'research', 'wearables']
TW_SECTION_TAG = {'hardware': 'chips', 'science': 'research', 'networks': 'satellites', 'reviews': 'displays',
                  'security': 'cybersecurity', 'software': 'open source', 'smart-home': 'firmware',
                  'policy': 'repair', 'transport': 'batteries'}

TW_CSS = """
:root{--tw-ink:#111418;--tw-muted:#5b6470;--tw-accent:#e4002b;--tw-rule:#e3e6ea;--tw-bg:#fff;--tw-max:1180px}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body.tw-body{margin:0;font:16px/1.6 "Source Sans 3",system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--tw-ink);background:var(--tw-bg)}
.tw-skip{position:absolute;left:-9999px}.tw-skip:focus{left:8px;top:8px;background:#000;color:#fff;padding:6px 10px}
.tw-visually-hidden{position:absolute!important;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.tw-ticker{background:#0d1117;color:#c9d1d9;font-size:13px;padding:4px 16px;white-space:nowrap;overflow:hidden}
.tw-ticker a{color:#fff;margin-right:18px}
.tw-header{display:flex;align-items:center;gap:24px;max-width:var(--tw-max);margin:0 auto;padding:14px 16px;border-bottom:3px solid var(--tw-ink)}
.tw-header__logo img{display:block;height:36px;width:auto}
.tw-nav ul{display:flex;flex-wrap:wrap;gap:4px 18px;list-style:none;margin:0;padding:0}
.tw-nav a{color:var(--tw-ink);text-decoration:none;font-weight:600;font-size:14px;text-transform:uppercase;letter-spacing:.04em}
.tw-nav a:hover,.tw-nav a[aria-current]{color:var(--tw-accent)}
.tw-search{margin-left:auto}.tw-search input{border:1px solid var(--tw-rule);padding:6px 10px;border-radius:3px}
.tw-page{display:grid;grid-template-columns:minmax(0,1fr) 300px;gap:40px;max-width:var(--tw-max);margin:24px auto;padding:0 16px}
@media (max-width:900px){.tw-page{grid-template-columns:1fr}.tw-rail{order:2}.tw-nav ul{gap:2px 10px}}
.tw-crumbs{font-size:13px;color:var(--tw-muted)}.tw-crumbs a{color:inherit}
.tw-kicker{color:var(--tw-accent);font-weight:700;text-transform:uppercase;font-size:13px;margin:0 0 6px}
.tw-article__title,.tw-index__title{font:700 40px/1.15 "Newsreader",Georgia,serif;margin:0 0 12px}
.tw-standfirst{font-size:20px;color:var(--tw-muted);margin:0 0 16px}
.tw-byline{font-size:14px;color:var(--tw-muted);border-top:1px solid var(--tw-rule);border-bottom:1px solid var(--tw-rule);padding:8px 0}
.tw-byline a{color:var(--tw-ink);font-weight:600}
.tw-share{display:flex;gap:10px;list-style:none;padding:0;margin:12px 0}
.tw-share a{display:inline-block;width:32px;height:32px;border-radius:50%;background:#f1f3f5;text-indent:-9999px;overflow:hidden}
.tw-article__body{font:19px/1.7 "Newsreader",Georgia,serif;max-width:680px}
.tw-article__body p{margin:0 0 1.2em}
.tw-article__body h2{font:700 24px/1.3 system-ui,sans-serif;margin:1.6em 0 .6em}
.tw-article__foot{margin:32px 0;font-size:14px;color:var(--tw-muted)}
.tw-article__foot a{color:var(--tw-ink);margin-right:8px}
.tw-syndication{background:#f6f8fa;border-left:4px solid var(--tw-accent);padding:10px 14px;font-size:14px;max-width:680px}
.tw-related h2,.tw-rail h2,.tw-index__group h2{font-size:14px;text-transform:uppercase;letter-spacing:.08em;border-bottom:2px solid var(--tw-ink);padding-bottom:4px}
.tw-list{list-style:none;margin:0;padding:0}.tw-list li{padding:10px 0;border-bottom:1px solid var(--tw-rule)}
.tw-list a{color:var(--tw-ink);text-decoration:none;font-weight:600}.tw-list a:hover{text-decoration:underline}
.tw-card p{margin:4px 0 0;color:var(--tw-muted);font-size:15px}.tw-card time{font-size:12px;color:var(--tw-muted)}
.tw-popular{counter-reset:pop;list-style:none;padding:0}.tw-popular li{counter-increment:pop;display:flex;gap:10px;padding:8px 0}
.tw-popular li::before{content:counter(pop);font:700 28px/1 Georgia,serif;color:var(--tw-accent)}
.tw-popular a{color:var(--tw-ink);text-decoration:none}
.ad{background:#fafafa;border:1px solid var(--tw-rule);text-align:center;padding:8px;margin:16px 0}
.ad__label{display:block;font-size:11px;text-transform:uppercase;letter-spacing:.1em;color:#888}
.ad__copy{font-size:13px;color:#555;margin:6px 0 0}
.tw-leaderboard{max-width:970px;margin:12px auto;min-height:90px}
.tw-tags a{display:inline-block;margin:0 6px 6px 0;padding:2px 8px;border:1px solid var(--tw-rule);border-radius:12px;font-size:13px;color:var(--tw-ink);text-decoration:none}
.tw-archive{columns:2;list-style:none;padding:0;font-size:14px}
.tw-newsletter input{width:100%;padding:8px;border:1px solid var(--tw-rule);margin-bottom:6px}
.tw-newsletter button,.tw-consent button{background:var(--tw-accent);color:#fff;border:0;padding:8px 14px;font-weight:700;cursor:pointer}
.tw-newsletter.has-error input{border-color:var(--tw-accent)}
.tw-footer{background:#0d1117;color:#c9d1d9;padding:40px 16px;margin-top:60px;font-size:14px}
.tw-footer a{color:#fff}.tw-footer__cols{display:flex;flex-wrap:wrap;gap:40px;max-width:var(--tw-max);margin:0 auto}
.tw-footer__cols ul,.tw-footer__legal ul{list-style:none;padding:0}
.tw-footer__legal{max-width:var(--tw-max);margin:24px auto 0;border-top:1px solid #30363d;padding-top:16px;font-size:12px}
.tw-footer__legal li{display:inline-block;margin-right:14px}
.tw-gallery figure{margin:0 0 28px}.tw-gallery img{width:100%;height:auto;display:block}
.tw-gallery figcaption{font-size:14px;color:var(--tw-muted);padding-top:6px}
.tw-credit{font-size:12px;text-transform:uppercase;margin-left:6px}
.tw-progress{position:fixed;top:0;left:0;height:3px;background:var(--tw-accent);width:0;z-index:50}
.tw-consent{position:fixed;bottom:0;left:0;right:0;background:#fff;box-shadow:0 -2px 12px rgba(0,0,0,.15);padding:16px;display:none;z-index:60}
.tw-consent.is-open{display:block}
@media print{.tw-header,.tw-rail,.tw-footer,.ad,.tw-share,.tw-ticker,.tw-related{display:none}}
"""

TW_HEAD_JS = """
window.dataLayer = window.dataLayer || [];
function twTrack() { window.dataLayer.push(arguments); }
twTrack('js', new Date());
twTrack('config', 'TW-MEASURE-0042', { anonymize_ip: true, transport_type: 'beacon' });
(function () {
  var consentKey = 'tw_consent_v3';
  function readConsent() {
    try { return JSON.parse(window.localStorage.getItem(consentKey) || 'null'); } catch (e) { return null; }
  }
  window.twConsent = {
    state: readConsent(),
    grant: function (purposes) {
      this.state = { ts: Date.now(), purposes: purposes };
      try { window.localStorage.setItem(consentKey, JSON.stringify(this.state)); } catch (e) {}
      document.dispatchEvent(new CustomEvent('tw:consent', { detail: this.state }));
    },
    allows: function (purpose) { return !!(this.state && this.state.purposes.indexOf(purpose) !== -1); }
  };
  document.documentElement.className = document.documentElement.className.replace('no-js', 'js');
})();
"""

TW_BODY_JS = """
(function () {
  'use strict';
  var adServer = 'https://ads.adnetwork.example/serve';
  var slots = Array.prototype.slice.call(document.querySelectorAll('[data-slot]'));
  function fillSlot(el) {
    if (!window.twConsent.allows('ads')) { el.setAttribute('data-state', 'no-consent'); return; }
    var size = el.getAttribute('data-size') || '300x250';
    var req = new XMLHttpRequest();
    req.open('GET', adServer + '?slot=' + encodeURIComponent(el.getAttribute('data-slot')) +
      '&size=' + size + '&ord=' + Math.floor(Math.random() * 1e9));
    req.onload = function () {
      if (req.status === 200 && req.responseText) { el.innerHTML = req.responseText; el.classList.add('is-filled'); }
    };
    req.send();
  }
  if ('IntersectionObserver' in window) {
    var io = new IntersectionObserver(function (entries) {
      entries.forEach(function (en) { if (en.isIntersecting) { fillSlot(en.target); io.unobserve(en.target); } });
    }, { rootMargin: '200px 0px' });
    slots.forEach(function (s) { io.observe(s); });
  } else {
    slots.forEach(fillSlot);
  }
  var bar = document.createElement('div');
  bar.className = 'tw-progress';
  document.body.appendChild(bar);
  window.addEventListener('scroll', function () {
    var h = document.documentElement;
    var pct = h.scrollTop / Math.max(1, h.scrollHeight - h.clientHeight);
    bar.style.width = (pct * 100).toFixed(1) + '%';
  }, { passive: true });
  var box = document.querySelector('.tw-consent');
  if (box && !window.twConsent.state) {
    box.classList.add('is-open');
    box.querySelector('button').addEventListener('click', function () {
      window.twConsent.grant(['analytics', 'ads', 'personalisation']);
      box.classList.remove('is-open');
      slots.forEach(fillSlot);
    });
  }
  document.querySelectorAll('form.tw-newsletter').forEach(function (f) {
    f.addEventListener('submit', function (ev) {
      ev.preventDefault();
      var email = f.querySelector('input[type=email]').value.trim();
      if (!/^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$/.test(email)) { f.classList.add('has-error'); return; }
      fetch('/api/newsletter', { method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: email, list: 'daily-wire' }) })
        .then(function () { f.innerHTML = '<p class="tw-newsletter__ok">Thanks! Check your inbox to confirm.</p>'; })
        .catch(function () { f.classList.add('has-error'); });
    });
  });
  twTrack('event', 'page_view', { section: document.body.getAttribute('data-section') || 'home' });
})();
"""


def render_techwire(c, p):
    site, d = 'techwire', p.doc
    host = SITES[site]['host']
    sec = section_label(site, p.section) if d else ''
    if p.kind == 'hub':
        title = p.title if p.path == 'index.html' else '%s | TechWire' % p.title
        desc = 'TechWire: %s. Technology news, reviews and analysis.' % p.title
        h1_class = 'tw-visually-hidden' if p.path == 'index.html' else 'tw-index__title'
        main = ['<main id="main" class="tw-main tw-main--index">', '<h1 class="%s">%s</h1>' % (h1_class, esc(p.title))]
        for g in p.hub['groups']:
            main.append('<section class="tw-index__group">')
            main.append('<h2>%s</h2>' % esc(g['heading']))
            main.append('<ul class="tw-list">')
            for q in g['pages']:
                teaser = '<p>%s</p>' % esc(q.doc.summary) if g['teaser'] else ''
                main.append('<li class="tw-card"><a class="tw-card__link" href="%s">%s</a>%s<time datetime="%s">%s</time></li>'
                            % (href(p, q), esc(anchor(g, q)), teaser, q.date.isoformat(), q.date.strftime('%d %b %Y')))
            main.append('</ul>')
            main.append('</section>')
        main.append('</main>')
        ld = {'@context': 'https://schema.org', '@type': 'CollectionPage', 'name': p.title, 'url': p.url}
        og_type = 'website'
    else:
        title = '%s | TechWire' % d.title
        desc = d.summary
        slug = re.sub(r'[^a-z]+', '-', d.author.lower()).strip('-')
        main = ['<main id="main" class="tw-main">',
                '<article class="tw-article%s" data-id="%s">' % (' tw-article--gallery' if p.kind == 'image' else '', d.id),
                '<nav class="tw-crumbs" aria-label="Breadcrumb"><a href="/">Home</a> › <a href="/section/%s.html">%s</a></nav>' % (p.section, esc(sec)),
                '<header class="tw-article__head">',
                '<p class="tw-kicker">%s</p>' % esc('In pictures' if p.kind == 'image' else sec),
                '<h1 class="tw-article__title">%s</h1>' % esc(d.title),
                '<p class="tw-standfirst">%s</p>' % esc(d.intro if p.kind == 'image' else d.summary),
                '<div class="tw-byline">By <a rel="author" href="/authors/%s/">%s</a> <span class="tw-dot">·</span> '
                '<time datetime="%sT%s:00Z">%d %s %d</time> <span class="tw-dot">·</span> <span class="tw-readtime">%d min read</span></div>'
                % (slug, esc(d.author), d.date.isoformat(), clock(d.id), d.date.day, MONTHS[d.date.month - 1], d.date.year, num(d.id, 3, 7)),
                '<ul class="tw-share"><li><a class="tw-share__x" href="https://share.example/x?u=%s">Share on X</a></li>'
                '<li><a class="tw-share__mail" href="mailto:?subject=%s">Share by email</a></li>'
                '<li><a class="tw-share__print" href="/print/%s.html">Print</a></li></ul>' % (attr(p.url), attr(d.title), d.id),
                '</header>']
        if p.kind == 'image':
            main.append('<div class="tw-gallery">')
            for _, file_, alt, cap in images(d):
                main.append('<figure class="tw-gallery__item"><img src="/media/gallery/%s/%s" alt="%s" width="1200" height="800" loading="lazy">'
                            '<figcaption>%s <span class="tw-credit">TechWire</span></figcaption></figure>' % (d.id, file_, attr(alt), esc(cap)))
            main.append('</div>')
        else:
            main.append('<div class="tw-article__body">')
            main += body_html(d, p='<p>{}</p>', h='<h2>{}</h2>', em='strong')
            main.append('</div>')
        if p.origin_site:
            orig = p.replica_of
            main.append('<aside class="tw-syndication">This story was first published by <a href="%s">%s</a> and is republished with permission.</aside>'
                        % (orig.url, esc(SITES[orig.site]['name'])))
        main.append('<footer class="tw-article__foot"><span>Topics:</span> <a href="/section/%s.html">%s</a> <a href="/tag/%s/">%s</a>'
                    '<p class="tw-corrections">Spotted an error? <a href="/corrections/">Tell our corrections desk</a>.</p></footer>'
                    % (p.section, esc(sec), TW_SECTION_TAG[p.section].replace(' ', '-'), esc(TW_SECTION_TAG[p.section])))
        main.append('</article>')
        main.append('<section class="tw-related"><h2>Read next</h2><ul class="tw-list">')
        for q in c.related(p):
            main.append('<li><a href="%s">%s</a></li>' % (href(p, q), esc(q.title)))
        main.append('</ul></section>')
        main.append('</main>')
        ld = {'@context': 'https://schema.org', '@type': 'NewsArticle', 'headline': d.title,
              'datePublished': d.date.isoformat(), 'author': {'@type': 'Person', 'name': d.author},
              'publisher': {'@type': 'Organization', 'name': 'TechWire'}, 'mainEntityOfPage': p.url}
        og_type = 'article'
    rail = ['<aside class="tw-rail" aria-label="Sidebar">',
            '<section class="tw-rail__box"><h2>Most popular</h2><ol class="tw-popular">']
    rail += ['<li><a href="%s">%s</a></li>' % (href(p, q), esc(q.title)) for q in c.popular(site)]
    rail += ['</ol></section>',
             '<div class="ad tw-mpu" data-slot="rail-1" data-size="300x250"><span class="ad__label">Sponsored</span>'
             '<a href="https://ads.adnetwork.example/click?c=tw-rail-1" rel="sponsored nofollow">'
             '<img src="https://cdn.adnetwork.example/creative/nimbus-300x250.jpg" alt="Nimbus Cloud Backup: your first terabyte free" width="300" height="250"></a>'
             '<p class="ad__copy">Nimbus Cloud Backup. Set it up once and stop worrying about lost files.</p></div>',
             '<section class="tw-rail__box"><h2>The Daily Wire</h2><p>The day\'s technology news in five minutes, every weekday at 7am.</p>'
             '<form class="tw-newsletter" action="/api/newsletter" method="post"><input type="email" name="email" placeholder="you@example.com" required>'
             '<button type="submit">Sign up</button></form></section>',
             '<section class="tw-rail__box"><h2>Archives</h2><ul class="tw-archive">']
    rail += ['<li><a href="/archive/%d/%02d/">%s %d</a></li>' % (y, m, MONTHS[m - 1], y) for y, m in c.archive_months(site)]
    rail += ['</ul></section>', '<section class="tw-rail__box"><h2>Tags</h2><div class="tw-tags">']
    rail += ['<a href="/tag/%s/">%s</a>' % (t.replace(' ', '-'), esc(t)) for t in TW_TAGS]
    rail += ['</div></section>', '</aside>']
    ld_json = json.dumps(ld, ensure_ascii=False).replace('</', '<\\/')
    out = ['<!DOCTYPE html>',
           '<html lang="en-GB" class="no-js">',
           '<head>',
           '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           '<title>%s</title>' % esc(title),
           '<meta name="description" content="%s">' % attr(desc),
           '<meta name="robots" content="index, follow, max-image-preview:large">',
           '<meta property="og:site_name" content="TechWire">',
           '<meta property="og:type" content="%s">' % og_type,
           '<meta property="og:title" content="%s">' % attr(p.title),
           '<meta property="og:url" content="%s">' % attr(p.url),
           '<meta name="twitter:card" content="summary_large_image">',
           '<link rel="canonical" href="%s">' % attr(p.url),
           '<link rel="alternate" type="application/rss+xml" title="TechWire" href="%s/feed.xml">' % host,
           '<link rel="icon" href="/static/img/favicon.png">',
           '<style>', TW_CSS.strip('\n'), '</style>',
           '<script type="application/ld+json">%s</script>' % ld_json,
           '<script>', TW_HEAD_JS.strip('\n'), '</script>',
           '</head>',
           '<body class="tw-body" data-section="%s">' % (p.section or 'home'),
           '<a class="tw-skip" href="#main">Skip to content</a>',
           '<div class="tw-ticker">Trending: <a href="/tag/privacy/">Privacy</a><a href="/tag/repair/">Right to repair</a><a href="/tag/satellites/">Satellites</a><a href="/podcast/">This week\'s podcast</a></div>',
           '<header class="tw-header">',
           '<a class="tw-header__logo" href="/"><img src="/static/img/techwire-logo.svg" alt="TechWire" width="180" height="36"></a>',
           '<nav class="tw-nav" aria-label="Sections"><ul>']
    out += ['<li><a href="%s"%s>%s</a></li>' % (u, ' aria-current="page"' if d and u.endswith('/%s.html' % p.section) else '', esc(n)) for n, u in TW_NAV]
    out += ['</ul></nav>',
            '<form class="tw-search" action="/search" role="search"><input type="search" name="q" placeholder="Search TechWire" aria-label="Search"><button type="submit">Search</button></form>',
            '</header>',
            '<div class="ad tw-leaderboard" data-slot="top" data-size="970x90"><span class="ad__label">Sponsored</span>'
            '<a href="https://ads.adnetwork.example/click?c=tw-top" rel="sponsored nofollow"><img src="https://cdn.adnetwork.example/creative/orbitdesk-970x90.jpg" alt="OrbitDesk standing desks: work on your feet" width="970" height="90"></a></div>',
            '<div class="tw-page">']
    out += main + rail
    out += ['</div>',
            '<footer class="tw-footer">',
            '<div class="tw-footer__cols">',
            '<div><img src="/static/img/techwire-logo-white.svg" alt="TechWire" width="140" height="28"><p>Independent reporting on the technology that shapes everyday life.</p></div>',
            '<div><h3>Sections</h3><ul>' + ''.join('<li><a href="%s">%s</a></li>' % (u, esc(n)) for n, u in TW_NAV[1:7]) + '</ul></div>',
            '<div><h3>Company</h3><ul><li><a href="/about/">About us</a></li><li><a href="/contact/">Contact</a></li><li><a href="/advertise/">Advertise</a></li><li><a href="/careers/">Careers</a></li><li><a href="/ethics/">Ethics policy</a></li></ul></div>',
            '<div><h3>Newsletters</h3><p>Get The Daily Wire and our weekly security briefing straight to your inbox. Unsubscribe at any time.</p><a href="/newsletters/">Choose newsletters</a></div>',
            '</div>',
            '<div class="tw-footer__legal"><p>&copy; 2024 TechWire Media Ltd. All rights reserved. Registered in England and Wales, company no. 0000000.</p>'
            '<ul><li><a href="/legal/privacy/">Privacy policy</a></li><li><a href="/legal/cookies/">Cookie settings</a></li><li><a href="/legal/terms/">Terms of use</a></li>'
            '<li><a href="/accessibility/">Accessibility</a></li><li><a href="/legal/complaints/">Complaints</a></li></ul></div>',
            '</footer>',
            '<div class="tw-consent" role="dialog" aria-label="Cookie consent"><p>We and our advertising partners use cookies to measure audiences and show relevant ads. You can change your choices at any time under Cookie settings.</p>'
            '<button type="button">Accept all</button> <a href="/legal/cookies/">Manage preferences</a></div>',
            '<script>', TW_BODY_JS.strip('\n'), '</script>',
            '</body>',
            '</html>', '']
    return '\n'.join(out)


# ===========================================================================
# Crumb & Crust: a blog whose theme is pure div soup (class names only,
# no ids, no HTML5 sectioning elements); an ad is injected mid-article.
# ===========================================================================

CC_NAV = [('Home', '/'), ('Recipes', '/recipe-index/'), ('Baking', '/category/baking/'),
          ('Preserving', '/category/preserving/'), ('Weeknight', '/category/weeknight/'),
          ('Weekend projects', '/category/weekend-projects/'), ('Kitchen kit', '/category/kitchen-kit/'),
          ('Shop', '/shop/'), ('About', '/about/'), ('Contact', '/contact/')]
CC_TAGS = ['bread', 'fermentation', 'dessert', 'vegetarian', 'one-pot', 'pastry', 'spices',
           'gluten-free', 'make-ahead', 'budget', 'technique']
CC_SECTION_TAGS = {'baking': ('pastry', 'technique'), 'preserving': ('fermentation', 'make-ahead'),
                   'kitchen-kit': ('technique', 'budget'), 'weeknight': ('one-pot', 'budget'),
                   'weekend-projects': ('make-ahead', 'technique')}
CC_BIOS = {
    'Nell Hawthorne': "Nell bakes in a very small kitchen with a very old oven and writes most of the baking posts here.",
    'Tomasz Wierzbicki': "Tomasz tests kitchen techniques side by side so you don't have to, and owns too many knives.",
    'Priya Menon': "Priya cooks from her grandmother's notebooks and whatever looks best at the Saturday market.",
}

CC_CSS = """
html{font-size:100%}body{margin:0;background:#fbf7f2;color:#2d2a26;font-family:"Lora",Georgia,serif;line-height:1.7}
a{color:#b4532a}a:hover{color:#7f3419}
.site-wrap{max-width:1140px;margin:0 auto;background:#fff}
.topbar{background:#2d2a26;color:#f4e9dd;font:13px/1 "Work Sans",Arial,sans-serif}
.topbar-inner{display:flex;justify-content:space-between;padding:8px 20px}
.topbar-social a{color:#f4e9dd;margin-left:12px;text-decoration:none}
.site-header{text-align:center;padding:28px 20px 0}
.site-branding .logo{max-width:260px;height:auto}
.site-tagline{font-style:italic;color:#8a7f73;margin-top:4px}
.main-navigation{border-top:1px solid #eadfd3;border-bottom:1px solid #eadfd3;margin-top:18px}
.menu-primary{display:flex;justify-content:center;flex-wrap:wrap}
.menu-item a{display:block;padding:12px 14px;font:600 13px/1 "Work Sans",Arial,sans-serif;text-transform:uppercase;letter-spacing:.08em;color:#2d2a26;text-decoration:none}
.menu-item a:hover{background:#fbf7f2}
.content-area{display:flex;gap:48px;padding:32px 20px}
.content-main{flex:1 1 auto;min-width:0}
.sidebar{flex:0 0 300px}
.entry-cats a{font:700 12px/1 "Work Sans",Arial,sans-serif;text-transform:uppercase;letter-spacing:.1em;text-decoration:none}
.entry-title{font-size:38px;line-height:1.2;margin:10px 0}
.entry-meta{font:14px/1.4 "Work Sans",Arial,sans-serif;color:#8a7f73}
.entry-meta span+span::before{content:" \\2022  "}
.jump-to-recipe{display:inline-block;margin:16px 0;padding:8px 16px;background:#b4532a;color:#fff;border-radius:20px;text-decoration:none;font:600 13px "Work Sans",Arial,sans-serif}
.entry-content{font-size:18px}.entry-content p{margin:0 0 1.3em}
.entry-content h2,.wp-block-heading{font-size:26px;margin:1.5em 0 .5em;border-bottom:2px dotted #eadfd3}
.wp-block-image img{max-width:100%;height:auto;display:block;border-radius:4px}
.wp-caption-text{font-size:14px;color:#8a7f73;text-align:center;padding:6px 0 18px}
.ad-slot{margin:24px 0;padding:10px;background:#f7f2ec;text-align:center;font:12px "Work Sans",Arial,sans-serif;color:#999}
.ad-label{display:block;text-transform:uppercase;letter-spacing:.12em;margin-bottom:6px}
.entry-footer{margin-top:30px;padding-top:16px;border-top:1px solid #eadfd3;font:14px "Work Sans",Arial,sans-serif}
.share-row a{display:inline-block;margin-right:10px}
.author-box{display:flex;gap:16px;background:#fbf7f2;padding:18px;margin:30px 0;border-radius:6px}
.author-box img{border-radius:50%}
.comments-area .comments-title{font-size:22px;margin-bottom:10px}
.comment-form textarea{width:100%;min-height:120px}.comment-form input{width:48%}
.widget{margin-bottom:36px}.widget-title{font:700 14px/1 "Work Sans",Arial,sans-serif;text-transform:uppercase;letter-spacing:.1em;border-bottom:2px solid #2d2a26;padding-bottom:8px;margin-bottom:12px}
.widget-list a{display:block;padding:6px 0;border-bottom:1px dotted #eadfd3;text-decoration:none;color:#2d2a26}
.tag-cloud a{display:inline-block;margin:0 8px 8px 0;font-size:14px}
.post-card{display:flex;gap:18px;padding:18px 0;border-bottom:1px solid #eadfd3}
.post-card-thumb img{width:150px;height:150px;object-fit:cover;border-radius:4px}
.post-card-title a{font-size:22px;color:#2d2a26;text-decoration:none}
.post-card-excerpt{color:#5f574e}.post-card-meta{font:13px "Work Sans",Arial,sans-serif;color:#8a7f73}
.page-title{font-size:34px;margin:0 0 12px}
.site-footer{background:#2d2a26;color:#f4e9dd;padding:36px 20px;font:14px/1.6 "Work Sans",Arial,sans-serif}
.site-footer a{color:#f4c9a8}.footer-cols{display:flex;gap:40px;flex-wrap:wrap}
.footer-bottom{margin-top:24px;border-top:1px solid #4a443e;padding-top:14px;font-size:12px}
.cookie-notice{position:fixed;bottom:16px;left:16px;max-width:360px;background:#fff;box-shadow:0 4px 20px rgba(0,0,0,.2);padding:14px;display:none}
.cookie-notice.show{display:block}
@media (max-width:860px){.content-area{flex-direction:column}.sidebar{flex-basis:auto}}
"""

CC_JS = """
/* theme helpers: lazy images, jump-to-recipe, pin buttons, cookie notice */
(function ($) {
  var lazy = [].slice.call(document.querySelectorAll('img[data-src]'));
  function loadImg(img) { img.src = img.getAttribute('data-src'); img.removeAttribute('data-src'); }
  if ('IntersectionObserver' in window) {
    var obs = new IntersectionObserver(function (items) {
      items.forEach(function (it) { if (it.isIntersecting) { loadImg(it.target); obs.unobserve(it.target); } });
    });
    lazy.forEach(function (img) { obs.observe(img); });
  } else { lazy.forEach(loadImg); }
  var jump = document.querySelector('.jump-to-recipe');
  if (jump) {
    jump.addEventListener('click', function (e) {
      var target = document.querySelector('.entry-content h2') || document.querySelector('.entry-content');
      if (target) { e.preventDefault(); target.scrollIntoView({ behavior: 'smooth' }); }
    });
  }
  [].forEach.call(document.querySelectorAll('.entry-content img, .wp-block-image img'), function (img) {
    var pin = document.createElement('a');
    pin.className = 'pin-it';
    pin.href = 'https://pins.example/create?url=' + encodeURIComponent(location.href) + '&media=' + encodeURIComponent(img.src);
    pin.textContent = 'Save';
    img.parentNode.appendChild(pin);
  });
  if (!document.cookie.match(/cc_cookie_ok=1/)) {
    var note = document.querySelector('.cookie-notice');
    if (note) {
      note.className += ' show';
      note.querySelector('.cookie-ok').onclick = function () {
        document.cookie = 'cc_cookie_ok=1; max-age=31536000; path=/';
        note.className = note.className.replace(' show', '');
      };
    }
  }
  var ratingStars = document.querySelectorAll('.rating-star');
  for (var i = 0; i < ratingStars.length; i++) {
    ratingStars[i].addEventListener('click', function () {
      var value = this.getAttribute('data-value');
      var xhr = new XMLHttpRequest();
      xhr.open('POST', '/wp-json/cc/v1/rate');
      xhr.setRequestHeader('Content-Type', 'application/x-www-form-urlencoded');
      xhr.send('post=' + document.body.getAttribute('data-post') + '&stars=' + value);
    });
  }
})(window.jQuery);
"""


def render_crumbandcrust(c, p):
    site, d = 'crumbandcrust', p.doc
    out_main = []
    if p.kind == 'hub':
        title = p.title if p.path == 'index.html' else '%s - Crumb &amp; Crust' % esc(p.title)
        if p.path == 'index.html':
            title = esc(p.title)
        desc = 'Crumb & Crust: recipes, baking and preserving from a small home kitchen.'
        body_class = 'home blog' if p.path == 'index.html' else 'archive category'
        out_main.append('<div class="page-header"><h1 class="page-title">%s</h1></div>' % esc(p.title))
        for g in p.hub['groups']:
            out_main.append('<div class="post-list-section"><div class="post-list-heading">%s</div>' % esc(g['heading']))
            for q in g['pages']:
                if g['teaser']:
                    out_main.append('<div class="post-card"><div class="post-card-thumb"><a href="%s"><img src="/wp-content/uploads/%s-150x150.jpg" alt="" width="150" height="150"></a></div>'
                                    '<div class="post-card-body"><div class="post-card-title"><a href="%s">%s</a></div><div class="post-card-excerpt">%s</div>'
                                    '<div class="post-card-meta">%s %d, %d</div></div></div>'
                                    % (href(p, q), q.doc.id, href(p, q), esc(anchor(g, q)), esc(q.doc.summary), MONTHS[q.date.month - 1], q.date.day, q.date.year))
                else:
                    out_main.append('<div class="post-line"><a href="%s">%s</a></div>' % (href(p, q), esc(anchor(g, q))))
            out_main.append('</div>')
        out_main.append('<div class="pagination"><span class="page-numbers current">1</span> <a class="page-numbers" href="/page/2/">2</a> <a class="next page-numbers" href="/page/2/">Older posts</a></div>')
    else:
        title = '%s - Crumb &amp; Crust' % esc(d.title)
        desc = d.summary
        body_class = 'post-template-default single single-post single-format-%s' % ('gallery' if p.kind == 'image' else 'standard')
        out_main += ['<div class="post-wrap">',
                     '<div class="entry-header">',
                     '<div class="entry-cats"><a href="/category/%s/">%s</a></div>' % (p.section, esc(section_label(site, p.section))),
                     '<h1 class="entry-title">%s</h1>' % esc(d.title),
                     '<div class="entry-meta"><span class="byline">by <span class="author vcard"><a href="/author/%s/">%s</a></span></span>'
                     '<span class="posted-on">%s %d, %d</span><span class="comments-link"><a href="#comments">%d comments</a></span></div>'
                     % (d.author.split()[0].lower(), esc(d.author), MONTHS[d.date.month - 1], d.date.day, d.date.year, num(d.id + 'c', 2, 48)),
                     '<a class="jump-to-recipe" href="#recipe">Jump to recipe</a>' if p.kind == 'topic' else '',
                     '</div>',
                     '<div class="entry-content">']
        ad = ('<div class="ad-slot ad in-content"><span class="ad-label">Sponsored</span>'
              '<a href="https://ads.kitchenads.example/c?slot=incontent" rel="sponsored"><img src="https://ads.kitchenads.example/img/copperline-pans-336x280.jpg" alt="Copperline pans" width="336" height="280"></a>'
              '<div class="ad-text">Copperline tri-ply pans. Free delivery this week only.</div></div>')
        if p.kind == 'image':
            out_main.append('<p>%s</p>' % esc(d.intro))
            for i, (_, file_, alt, cap) in enumerate(images(d)):
                out_main.append('<div class="wp-block-image"><img src="/wp-content/uploads/%d/%02d/%s" alt="%s" width="800" height="600"><div class="wp-caption-text">%s</div></div>'
                                % (d.date.year, d.date.month, file_, attr(alt), esc(cap)))
                if i == 3:
                    out_main.append(ad)
        else:
            parts = body_html(d, p='<p>{}</p>', h='<h2 class="wp-block-heading">{}</h2>', em='strong')
            parts.insert(2, ad)
            out_main += parts
        tag1, tag2 = CC_SECTION_TAGS[p.section]
        out_main += ['</div>',
                     '<div class="entry-footer"><div class="tags-links">Tagged: <a href="/tag/%s/">%s</a>, <a href="/tag/%s/">%s</a></div>'
                     % (tag1, tag1, tag2, tag2),
                     '<div class="share-row">Share: <a href="https://pins.example/create?url=%s">Pin</a> <a href="https://share.example/fb?u=%s">Facebook</a> <a href="mailto:?subject=%s">Email</a></div>'
                     % (attr(p.url), attr(p.url), attr(d.title)),
                     '<div class="made-it">Did you make this recipe? Tag us in your photos so we can see how it turned out!</div></div>',
                     '<div class="author-box"><img src="/wp-content/uploads/authors/%s.jpg" alt="%s" width="80" height="80"><div class="author-bio"><div class="author-name">About %s</div><div class="author-text">%s</div></div></div>'
                     % (d.author.split()[0].lower(), attr(d.author), esc(d.author), esc(CC_BIOS.get(d.author, ''))),
                     '<div class="comments-area"><div class="comments-title">Leave a comment</div>'
                     '<div class="comment-form"><div class="comment-notes">Your email address will not be published. Required fields are marked *</div>'
                     '<textarea name="comment" placeholder="Your comment"></textarea><input name="author" placeholder="Name *"> <input name="email" placeholder="Email *">'
                     '<div class="rating-row">Rate this recipe: <span class="rating-star" data-value="1">1</span><span class="rating-star" data-value="2">2</span><span class="rating-star" data-value="3">3</span><span class="rating-star" data-value="4">4</span><span class="rating-star" data-value="5">5</span></div>'
                     '<div class="form-submit"><input type="submit" value="Post comment"></div></div></div>',
                     '</div>']
    side = ['<div class="sidebar">',
            '<div class="widget widget-about"><div class="widget-title">Hello!</div><img src="/wp-content/uploads/kitchen-table.jpg" alt="Our kitchen table" width="300" height="200">'
            '<div class="widget-text">We are three friends who cook at home and write down what works. No sponsored recipes, ever.</div></div>',
            '<div class="widget widget-popular"><div class="widget-title">Most popular</div><div class="widget-list">']
    side += ['<a href="%s">%s</a>' % (href(p, q), esc(q.title)) for q in c.popular(site)]
    side += ['</div></div>',
             '<div class="widget ad ad-slot"><span class="ad-label">Sponsored</span><a href="https://ads.kitchenads.example/c?slot=sidebar" rel="sponsored">'
             '<img src="https://ads.kitchenads.example/img/farmbox-300x600.jpg" alt="FarmBox weekly vegetable delivery" width="300" height="600"></a>'
             '<div class="ad-text">FarmBox: seasonal vegetables from local growers, delivered on Fridays.</div></div>',
             '<div class="widget widget-archive"><div class="widget-title">Archives</div><div class="widget-list">']
    side += ['<a href="/%d/%02d/">%s %d</a>' % (y, m, MONTHS[m - 1], y) for y, m in c.archive_months(site)]
    side += ['</div></div>', '<div class="widget widget-tags"><div class="widget-title">Tags</div><div class="tag-cloud">']
    side += ['<a href="/tag/%s/">%s</a>' % (t, t) for t in CC_TAGS]
    side += ['</div></div>', '</div>']
    out = ['<!DOCTYPE html>',
           '<html lang="en-US" class="no-js">',
           '<head>',
           '<meta http-equiv="Content-Type" content="text/html; charset=UTF-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           '<title>%s</title>' % title,
           '<meta name="description" content="%s">' % attr(desc),
           '<meta name="generator" content="BlogPress 6.2">',
           '<meta property="og:locale" content="en_US">',
           '<meta property="og:type" content="%s">' % ('website' if p.kind == 'hub' else 'article'),
           '<meta property="og:title" content="%s">' % attr(p.title),
           '<meta property="og:site_name" content="Crumb &amp; Crust">',
           '<meta name="pinterest-rich-pin" content="true">',
           '<link rel="canonical" href="%s">' % attr(p.url),
           '<link rel="stylesheet" href="/wp-content/themes/hearth/style.css?ver=2.4.1" type="text/css" media="all">',
           '<style>', CC_CSS.strip('\n'), '</style>',
           '<script src="/wp-includes/js/jquery/jquery.min.js?ver=3.7.1"></script>',
           '</head>',
           '<body class="%s" data-post="%d">' % (body_class, num(p.path, 100, 999)),
           '<div class="site-wrap">',
           '<div class="topbar"><div class="topbar-inner"><span class="topbar-msg">New: download our free printable meal planner</span>'
           '<span class="topbar-social"><a href="https://pins.example/crumbandcrust">Pinterest</a><a href="https://photos.example/crumbandcrust">Instagram</a><a href="/feed/">RSS</a></span></div></div>',
           '<div class="site-header"><div class="site-branding"><a class="logo-link" href="/"><img class="logo" src="/wp-content/uploads/crumb-and-crust-logo.png" alt="Crumb &amp; Crust" width="260" height="90"></a>'
           '<div class="site-tagline">Home cooking, slowly</div></div>',
           '<div class="main-navigation"><div class="menu-primary">']
    out += ['<div class="menu-item"><a href="%s">%s</a></div>' % (u, esc(n)) for n, u in CC_NAV]
    out += ['</div></div></div>',
            '<div class="content-area"><div class="content-main">']
    out += out_main
    out += ['</div>']
    out += side
    out += ['</div>',
            '<div class="site-footer"><div class="footer-cols">',
            '<div class="footer-col"><div class="footer-title">The Sunday Letter</div><div class="footer-text">One email a week with what we cooked, what failed and what is in season. Join 12,000 home cooks.</div>'
            '<div class="newsletter-form"><input type="email" placeholder="Email address"> <button class="newsletter-btn">Subscribe</button></div></div>',
            '<div class="footer-col"><div class="footer-title">Explore</div><div class="footer-links"><a href="/recipe-index/">Recipe index</a> <a href="/about/">About us</a> <a href="/contact/">Contact</a> <a href="/work-with-us/">Work with us</a></div></div>',
            '</div>',
            '<div class="footer-bottom">&copy; 2024 Crumb &amp; Crust. All recipes and photographs are our own. '
            '<a href="/privacy-policy/">Privacy policy</a> | <a href="/disclosure/">Affiliate disclosure</a> | <a href="/terms/">Terms</a> | <a href="/accessibility/">Accessibility</a></div></div>',
            '<div class="cookie-notice">This site uses cookies to remember your preferences and count visits. <span class="cookie-ok">OK</span></div>',
            '</div>',
            '<script>', CC_JS.strip('\n'), '</script>',
            '</body>',
            '</html>', '']
    return '\n'.join(x for x in out if x != '')  + '\n'


# ===========================================================================
# Marlow University: an old table layout with upper-case tags, FONT, CENTER
# and B, unclosed <P>, Dreamweaver-style rollover script and CRLF line ends.
# ===========================================================================

MU_NAV = [('Home', '/'), ('About the Faculty', '/science/about.htm'), ('Departments', '/science/departments.htm'),
          ('Undergraduate', '/science/ug/'), ('Postgraduate', '/science/pg/'), ('Research', '/science/research/'),
          ('News', '/science/news/'), ('Seminars', '/science/seminars/'), ('Staff Directory', '/directory/'),
          ('Library', '/library/'), ('Contact', '/science/contact.htm')]
MU_TAGS = ['Zoology', 'Physics', 'Geography', 'Earth Sciences', 'Agriculture', 'Environment',
           'Mathematics', 'Astronomy', 'Students', 'Fieldwork']

MU_CSS = """
<!--
body { margin: 0px; background-color: #FFFFFF; }
td, p { font-family: Verdana, Arial, Helvetica, sans-serif; font-size: 12px; color: #000000; }
a:link { color: #003366; text-decoration: underline; }
a:visited { color: #663399; text-decoration: underline; }
a:hover { color: #CC0000; text-decoration: none; }
.navlink { font-family: Verdana, Arial, sans-serif; font-size: 11px; font-weight: bold; color: #FFFFFF; text-decoration: none; }
.navlink:hover { color: #FFCC00; }
.sidehead { font-family: Verdana, Arial, sans-serif; font-size: 11px; font-weight: bold; color: #FFFFFF; background-color: #336699; padding: 3px; }
.sidelink { font-size: 11px; line-height: 16px; }
.crumb { font-size: 10px; color: #666666; }
.bodytext { font-family: Georgia, "Times New Roman", serif; font-size: 14px; line-height: 20px; }
.caption { font-size: 10px; color: #333333; }
.footer { font-size: 10px; color: #CCCCCC; }
.ad { border: 1px dashed #999999; padding: 4px; text-align: center; }
h1 { font-family: Georgia, serif; font-size: 22px; color: #003366; margin-bottom: 4px; }
h3 { font-family: Verdana, Arial, sans-serif; font-size: 13px; color: #336699; }
-->
"""

MU_JS = """
<!--
function muPreload() {
  var d = document;
  if (!d.muImgs) d.muImgs = new Array();
  var i, j = d.muImgs.length, a = muPreload.arguments;
  for (i = 0; i < a.length; i++) {
    if (a[i].indexOf("#") != 0) { d.muImgs[j] = new Image; d.muImgs[j++].src = a[i]; }
  }
}
function muSwap(name, src) {
  var img = document.images[name];
  if (img) { img.muOld = img.src; img.src = src; }
}
function muRestore(name) {
  var img = document.images[name];
  if (img && img.muOld) img.src = img.muOld;
}
function muPopup(url, w, h) {
  var win = window.open(url, "mupop", "width=" + w + ",height=" + h + ",scrollbars=yes,resizable=yes,toolbar=no");
  if (win) win.focus();
  return false;
}
function muCheckSearch(f) {
  if (f.q.value == "" || f.q.value == "Search the site") {
    alert("Please type a word to search for.");
    return false;
  }
  return true;
}
function muBookmark() {
  if (window.sidebar && window.sidebar.addPanel) { window.sidebar.addPanel(document.title, location.href, ""); }
  else if (window.external) { window.external.AddFavorite(location.href, document.title); }
  else { alert("Press Ctrl+D to bookmark this page."); }
}
var muToday = new Date();
var muYear = muToday.getYear(); if (muYear < 1000) muYear += 1900;
//-->
"""


def render_marlow(c, p):
    site, d = 'marlow', p.doc
    U = lambda q: href(p, q)
    content = []
    if p.kind == 'hub':
        title = 'Marlow University :: Faculty of Natural Sciences :: %s' % p.title
        desc = 'Faculty of Natural Sciences, Marlow University. %s.' % p.title
        content += ['<FONT CLASS="crumb"><A HREF="/">Home</A> &gt; <A HREF="/science/">Natural Sciences</A> &gt; %s</FONT>' % esc(p.title),
                    '<H1>%s</H1>' % esc(p.title)]
        for g in p.hub['groups']:
            content.append('<H3>%s</H3>' % esc(g['heading']).upper())
            content.append('<TABLE WIDTH="100%" BORDER="0" CELLPADDING="3" CELLSPACING="0">')
            for q in g['pages']:
                teaser = '<BR><FONT SIZE="1">%s</FONT>' % esc(q.doc.summary) if g['teaser'] else ''
                content.append('<TR><TD WIDTH="10" VALIGN="TOP"><IMG SRC="/images/bullet_blue.gif" WIDTH="8" HEIGHT="8" ALT=""></TD>'
                               '<TD><A HREF="%s">%s</A>%s</TD><TD WIDTH="70" VALIGN="TOP" ALIGN="RIGHT"><FONT SIZE="1" COLOR="#666666">%s</FONT></TD></TR>'
                               % (U(q), esc(anchor(g, q)), teaser, q.date.strftime('%d/%m/%Y')))
            content.append('</TABLE>')
    else:
        generic = d.htmltitle
        title = generic or 'Marlow University :: Faculty of Natural Sciences :: %s' % d.title
        desc = d.summary
        content += ['<FONT CLASS="crumb"><A HREF="/">Home</A> &gt; <A HREF="/science/">Natural Sciences</A> &gt; <A HREF="/science/%s/">%s</A></FONT>'
                    % (p.section, esc(section_label(site, p.section))),
                    '<H1>%s</H1>' % esc(d.title),
                    '<FONT SIZE="2" COLOR="#666666"><I>%s</I> &middot; %s</FONT>' % (esc(d.author), d.date.strftime('%d/%m/%Y')),
                    '<P><B>%s</B>' % esc(d.summary)]
        if p.kind == 'image':
            content.append('<P>%s' % esc(d.intro))
            content.append('<TABLE BORDER="0" CELLPADDING="6" CELLSPACING="0" WIDTH="100%">')
            imgs = images(d)
            for row in range(0, len(imgs), 3):
                content.append('<TR>')
                for _, file_, alt, cap in imgs[row:row + 3]:
                    content.append('<TD ALIGN="CENTER" VALIGN="TOP" WIDTH="33%%"><A HREF="/science/photos/full/%s" onClick="return muPopup(this.href,800,600)">'
                                   '<IMG SRC="/science/photos/thumbs/%s" WIDTH="130" HEIGHT="98" BORDER="0" ALT="%s"></A><BR><FONT CLASS="caption">%s</FONT></TD>'
                                   % (file_, file_, attr(alt), esc(cap)))
                content.append('</TR>')
            content.append('</TABLE>')
        else:
            content.append('<DIV CLASS="bodytext">')
            content += body_html(d, p='<P>{}', h='<H3>{}</H3>', em='B')
            content.append('</DIV>')
        content.append('<P><FONT SIZE="1"><A HREF="javascript:window.print()">Print this page</A> | <A HREF="javascript:muBookmark()">Bookmark</A> | '
                       '<A HREF="mailto:webmaster@marlow-uni.example?subject=%s">Email the web office</A></FONT>' % attr(d.title))
    side = ['<TABLE WIDTH="100%" BORDER="0" CELLPADDING="4" CELLSPACING="0">',
            '<TR><TD CLASS="sidehead">MOST POPULAR</TD></TR>',
            '<TR><TD CLASS="sidelink">' + '<BR>\r\n'.join('&#187; <A HREF="%s">%s</A>' % (U(q), esc(q.title)) for q in c.popular(site)) + '</TD></TR>',
            '<TR><TD CLASS="sidehead">NEWS ARCHIVES</TD></TR>',
            '<TR><TD CLASS="sidelink">' + '<BR>\r\n'.join('<A HREF="/science/news/archive.asp?y=%d&amp;m=%d">%s %d</A>' % (y, m, MONTHS[m - 1], y) for y, m in c.archive_months(site)) + '</TD></TR>',
            '<TR><TD CLASS="sidehead">TAGS</TD></TR>',
            '<TR><TD CLASS="sidelink">' + ' | '.join('<A HREF="/science/tags.asp?t=%s">%s</A>' % (t.replace(' ', '+'), esc(t)) for t in MU_TAGS) + '</TD></TR>',
            '<TR><TD CLASS="sidehead">QUICK LINKS</TD></TR>',
            '<TR><TD CLASS="sidelink"><A HREF="/timetables/">Timetables</A><BR>\r\n<A HREF="/webmail/">Staff webmail</A><BR>\r\n<A HREF="/vle/">Virtual Learning Environment</A><BR>\r\n<A HREF="/maps/">Campus maps</A></TD></TR>',
            '</TABLE>']
    nav = ' <FONT COLOR="#6699CC">|</FONT> '.join('<A HREF="%s" CLASS="navlink">%s</A>' % (u, esc(n)) for n, u in MU_NAV)
    out = ['<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">',
           '<HTML>',
           '<HEAD>',
           '<TITLE>%s</TITLE>' % esc(title),
           '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=utf-8">',
           '<META NAME="description" CONTENT="%s">' % attr(desc),
           '<META NAME="keywords" CONTENT="Marlow University, Faculty of Natural Sciences, science, research, %s">' % attr(section_label(site, p.section) if d else 'news'),
           '<META NAME="GENERATOR" CONTENT="Microsoft FrontPage 4.0">',
           '<META NAME="ProgId" CONTENT="FrontPage.Editor.Document">',
           '<LINK REL="SHORTCUT ICON" HREF="/favicon.ico">',
           '<STYLE TYPE="text/css">', MU_CSS.strip('\n'), '</STYLE>',
           '<SCRIPT LANGUAGE="JavaScript" TYPE="text/javascript">', MU_JS.strip('\n'), '</SCRIPT>',
           '</HEAD>',
           '<BODY BGCOLOR="#FFFFFF" TEXT="#000000" LINK="#003366" VLINK="#663399" LEFTMARGIN="0" TOPMARGIN="0" MARGINWIDTH="0" MARGINHEIGHT="0" '
           'onLoad="muPreload(\'/images/nav_news_on.gif\',\'/images/nav_research_on.gif\')">',
           '<CENTER>',
           '<TABLE WIDTH="780" BORDER="0" CELLPADDING="0" CELLSPACING="0">',
           '<TR>',
           '<TD WIDTH="260" BGCOLOR="#FFFFFF"><A HREF="/"><IMG SRC="/images/marlow_crest.gif" WIDTH="260" HEIGHT="80" BORDER="0" ALT="Marlow University"></A></TD>',
           '<TD COLSPAN="2" ALIGN="RIGHT" VALIGN="MIDDLE"><FORM ACTION="/search/search.asp" METHOD="GET" onSubmit="return muCheckSearch(this)">'
           '<INPUT TYPE="text" NAME="q" SIZE="18" VALUE="Search the site" onFocus="if(this.value==\'Search the site\')this.value=\'\'"> <INPUT TYPE="submit" VALUE="Go"></FORM>'
           '<FONT SIZE="1"><A HREF="/az/">A-Z index</A> | <A HREF="/textonly/">Text only</A></FONT></TD>',
           '</TR>',
           '<TR><TD COLSPAN="3" BGCOLOR="#003366" HEIGHT="24" ALIGN="CENTER">%s</TD></TR>' % nav,
           '<TR><TD COLSPAN="3" BGCOLOR="#CCCCCC"><IMG SRC="/images/spacer.gif" WIDTH="1" HEIGHT="2" ALT=""></TD></TR>',
           '<TR>',
           '<TD WIDTH="170" VALIGN="TOP" BGCOLOR="#E8EEF4">']
    out += side
    out += ['</TD>',
            '<TD WIDTH="440" VALIGN="TOP" STYLE="padding:10px">',
            '<!-- #BeginEditable "content" -->']
    out += content
    out += ['<!-- #EndEditable -->',
            '</TD>',
            '<TD WIDTH="170" VALIGN="TOP" ALIGN="CENTER">',
            '<BR><DIV CLASS="ad"><FONT SIZE="1" COLOR="#999999">Sponsored</FONT><BR>'
            '<A HREF="http://www.marlow-conference.example/?src=science"><IMG SRC="/images/ads/conference_160x120.gif" WIDTH="160" HEIGHT="120" BORDER="0" ALT="Marlow Conference Centre"></A><BR>'
            '<FONT SIZE="1">Host your event at the Marlow Conference Centre. Rooms for 10 to 400 delegates, catering on site.</FONT></DIV>',
            '<BR><DIV CLASS="ad"><FONT SIZE="1" COLOR="#999999">Sponsored</FONT><BR>'
            '<A HREF="http://www.studentlets.example/marlow"><IMG SRC="/images/ads/studentlets_160x240.gif" WIDTH="160" HEIGHT="240" BORDER="0" ALT="StudentLets Marlow"></A><BR>'
            '<FONT SIZE="1">Student rooms near campus for next September. Book a viewing today.</FONT></DIV>',
            '</TD>',
            '</TR>',
            '<TR><TD COLSPAN="3" BGCOLOR="#003366" ALIGN="CENTER" STYLE="padding:8px"><FONT CLASS="footer">'
            '&copy; 1998-2024 Marlow University. All rights reserved. | <A HREF="/disclaimer.htm"><FONT COLOR="#FFFFFF">Disclaimer</FONT></A> | '
            '<A HREF="/privacy.htm"><FONT COLOR="#FFFFFF">Privacy</FONT></A> | <A HREF="/foi/"><FONT COLOR="#FFFFFF">Freedom of Information</FONT></A> | '
            '<A HREF="/accessibility.htm"><FONT COLOR="#FFFFFF">Accessibility</FONT></A><BR>'
            'Subscribe to the Faculty e-bulletin for news, seminars and events every fortnight: <A HREF="/science/ebulletin.htm"><FONT COLOR="#FFCC00">sign up here</FONT></A>.<BR>'
            'This page is maintained by the Faculty Web Office. Best viewed at 800x600 or higher.</FONT></TD></TR>',
            '</TABLE>',
            '</CENTER>',
            '</BODY>',
            '</HTML>', '']
    return '\n'.join(out).replace('\r\n', '\n').replace('\n', '\r\n')


# ===========================================================================
# Wanderlane: HTML5 travel magazine with hero images and story cards.
# ===========================================================================

WL_NAV = [('Destinations', '/destinations/'), ('Europe', '/europe/'), ('Asia', '/asia/'), ('Americas', '/americas/'),
          ('Africa', '/africa/'), ('Photo stories', '/photo-stories/'), ('Travel skills', '/skills/'),
          ('Food &amp; drink', '/food-and-drink/'), ('Guides', '/guides/'), ('Shop', '/shop/'), ('Podcast', '/podcast/')]
WL_TAGS = ['hiking', 'rail travel', 'islands', 'mountains', 'food', 'winter', 'cities',
           'road trips', 'slow travel', 'wildlife', 'budget', 'solo travel']

WL_CSS = """
:root{--wl-sand:#f5efe6;--wl-ink:#1f2a2e;--wl-sea:#1f6f78;--wl-coral:#e07a5f;--wl-serif:"Fraunces",Georgia,serif;--wl-sans:"Inter",Helvetica,Arial,sans-serif}
body.wl{margin:0;background:var(--wl-sand);color:var(--wl-ink);font:17px/1.65 var(--wl-sans)}
img{max-width:100%;height:auto}
.wl-masthead{background:#fff;border-bottom:1px solid #e6ddd0;position:sticky;top:0;z-index:20}
.wl-masthead__inner{display:flex;align-items:center;gap:28px;max-width:1240px;margin:0 auto;padding:12px 24px}
.wl-logo img{display:block;width:190px}
.wl-nav{display:flex;flex-wrap:wrap;gap:6px 20px}
.wl-nav a{color:var(--wl-ink);text-decoration:none;font-size:15px}
.wl-nav a:hover{color:var(--wl-sea);text-decoration:underline;text-underline-offset:4px}
.wl-subscribe{margin-left:auto;background:var(--wl-coral);color:#fff;padding:8px 16px;border-radius:999px;text-decoration:none;font-weight:600}
.wl-menu-toggle{display:none}
@media (max-width:960px){.wl-nav{display:none}.wl-nav.is-open{display:flex;flex-direction:column}.wl-menu-toggle{display:block}}
.wl-main{display:grid;grid-template-columns:minmax(0,1fr) 320px;gap:48px;max-width:1240px;margin:0 auto;padding:32px 24px}
@media (max-width:960px){.wl-main{grid-template-columns:1fr}}
.wl-hero{margin:0 0 24px}.wl-hero img{width:100%;aspect-ratio:16/9;object-fit:cover;border-radius:6px}
.wl-hero figcaption,.wl-frame figcaption{font-size:13px;color:#6b6258;padding-top:6px}
.wl-story__region{color:var(--wl-sea);font-weight:700;text-transform:uppercase;letter-spacing:.12em;font-size:13px;text-decoration:none}
.wl-story h1,.wl-index h1{font:600 46px/1.1 var(--wl-serif);margin:8px 0 14px}
.wl-dek{font:italic 22px/1.4 var(--wl-serif);color:#4a4038;margin:0 0 16px}
.wl-byline{font-size:14px;color:#6b6258}.wl-byline a{color:var(--wl-ink)}
.wl-story__body{font:19px/1.75 var(--wl-serif);max-width:700px}
.wl-story__body p:first-child::first-letter{float:left;font-size:64px;line-height:.9;padding:6px 8px 0 0;color:var(--wl-coral)}
.wl-story__body em{font-style:italic;color:#2d3b40}
.wl-credit{font-size:14px;background:#fff;border:1px dashed #d8cbb8;padding:10px 14px;max-width:700px}
.wl-story__foot{margin-top:28px;font-size:14px}
.wl-photostory{display:grid;gap:28px}
.wl-frame{margin:0}.wl-frame img{width:100%;border-radius:4px}
.wl-sidebar section{background:#fff;border-radius:6px;padding:18px;margin-bottom:24px}
.wl-sidebar h2,.wl-grid h2,.wl-more h2{font:600 20px/1.2 var(--wl-serif);margin:0 0 12px}
.wl-sidebar ol,.wl-sidebar ul,.wl-linklist{margin:0;padding-left:18px}
.wl-sidebar li{margin-bottom:8px}
.wl-tagcloud a{display:inline-block;background:var(--wl-sand);padding:3px 10px;border-radius:999px;margin:0 6px 6px 0;font-size:13px;color:var(--wl-ink);text-decoration:none}
.ad{background:#fff;border:1px solid #e6ddd0;border-radius:6px;padding:12px;text-align:center;margin-bottom:24px}
.ad small{display:block;text-transform:uppercase;font-size:11px;letter-spacing:.14em;color:#9a8f82;margin-bottom:6px}
.wl-grid{margin-bottom:36px}
.wl-cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(240px,1fr));gap:24px}
.wl-card{background:#fff;border-radius:6px;overflow:hidden}
.wl-card a{color:var(--wl-ink);text-decoration:none}.wl-card h3{font:600 19px/1.25 var(--wl-serif);margin:10px 14px 4px}
.wl-card p{font-size:14px;color:#6b6258;margin:0 14px 14px}
.wl-more{max-width:1240px;margin:0 auto 40px;padding:0 24px}
.wl-footer{background:var(--wl-ink);color:#e9e1d6;padding:48px 24px;font-size:14px}
.wl-footer a{color:#fff}.wl-footer__grid{display:grid;grid-template-columns:2fr 1fr 1fr;gap:32px;max-width:1240px;margin:0 auto}
.wl-footer__legal{max-width:1240px;margin:32px auto 0;border-top:1px solid #3b474c;padding-top:16px;font-size:12px}
.wl-cookie{position:fixed;left:24px;bottom:24px;max-width:420px;background:#fff;padding:16px;border-radius:8px;box-shadow:0 10px 30px rgba(0,0,0,.2)}
"""

WL_HEAD_JS = """
window.wlConfig = { edition: 'intl', currency: 'EUR', affiliateTag: 'wanderlane-21', mapsKey: 'maps-demo-key' };
window.wlQueue = window.wlQueue || [];
function wl() { window.wlQueue.push([].slice.call(arguments)); }
wl('init', { site: 'wanderlane', consentRequired: true });
"""

WL_JS = """
(function () {
  var toggle = document.querySelector('.wl-menu-toggle');
  var nav = document.querySelector('.wl-nav');
  if (toggle && nav) {
    toggle.addEventListener('click', function () {
      var open = nav.classList.toggle('is-open');
      toggle.setAttribute('aria-expanded', open ? 'true' : 'false');
    });
  }
  var cookie = document.querySelector('.wl-cookie');
  if (cookie && document.cookie.indexOf('wl_ok=') === -1) {
    cookie.hidden = false;
    cookie.querySelector('button').addEventListener('click', function () {
      document.cookie = 'wl_ok=1; path=/; max-age=' + 60 * 60 * 24 * 365;
      cookie.hidden = true;
      wl('consent', 'granted');
    });
  }
  document.querySelectorAll('a[href^="https://book."]').forEach(function (a) {
    a.addEventListener('click', function () { wl('outbound', { href: a.href, tag: window.wlConfig.affiliateTag }); });
  });
  var frames = document.querySelectorAll('.wl-frame img');
  frames.forEach(function (img, i) {
    img.addEventListener('click', function () {
      var overlay = document.createElement('div');
      overlay.className = 'wl-lightbox';
      overlay.innerHTML = '<img src="' + img.src.replace('-1200', '-2400') + '" alt="">';
      overlay.addEventListener('click', function () { overlay.remove(); });
      document.body.appendChild(overlay);
      wl('lightbox', i + 1);
    });
  });
  var form = document.querySelector('.wl-newsletter');
  if (form) {
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      var data = new FormData(form);
      fetch('/api/subscribe', { method: 'POST', body: data }).then(function (r) {
        form.classList.add(r.ok ? 'is-done' : 'is-error');
      });
    });
  }
})();
"""


def render_wanderlane(c, p):
    site, d = 'wanderlane', p.doc
    main = []
    if p.kind == 'hub':
        title = '%s · Wanderlane' % p.title if p.path != 'index.html' else p.title
        desc = 'Wanderlane travel magazine: %s.' % p.title
        main += ['<div class="wl-index">', '<h1>%s</h1>' % esc(p.title)]
        for g in p.hub['groups']:
            main.append('<section class="wl-grid"><h2>%s</h2>' % esc(g['heading']))
            if g['teaser']:
                main.append('<div class="wl-cards">')
                for q in g['pages']:
                    main.append('<div class="wl-card"><a href="%s"><img src="/media/%s/card-600.jpg" alt="" width="600" height="400" loading="lazy"><h3>%s</h3></a><p>%s</p></div>'
                                % (href(p, q), q.doc.id, esc(anchor(g, q)), esc(q.doc.summary)))
                main.append('</div>')
            else:
                main.append('<ul class="wl-linklist">')
                main += ['<li><a href="%s">%s</a></li>' % (href(p, q), esc(anchor(g, q))) for q in g['pages']]
                main.append('</ul>')
            main.append('</section>')
        main.append('</div>')
    else:
        title = d.htmltitle or '%s · Wanderlane' % d.title
        desc = d.summary
        region = section_label(site, p.section)
        main += ['<article class="wl-story">']
        if p.kind == 'topic':
            main.append('<figure class="wl-hero"><img src="/media/%s/hero-1600.jpg" alt="" width="1600" height="900"><figcaption>Photograph: %s</figcaption></figure>'
                        % (d.id, esc(d.author)))
        main += ['<header class="wl-story__head">',
                 '<a class="wl-story__region" href="/%s/">%s</a>' % ('photo-stories' if p.kind == 'image' else p.section,
                                                                      'Photo story' if p.kind == 'image' else esc(region)),
                 '<h1>%s</h1>' % esc(d.title),
                 '<p class="wl-dek">%s</p>' % esc(d.intro if p.kind == 'image' else d.summary),
                 '<p class="wl-byline">%s <a href="/contributors/%s/">%s</a> · <time datetime="%s">%s</time></p>'
                 % ('Photographs by' if p.kind == 'image' else 'Words by', re.sub(r'[^a-z]+', '-', d.author.lower()).strip('-'),
                    esc(d.author), d.date.isoformat(), month_name(d.date)),
                 '</header>']
        if p.kind == 'image':
            main.append('<div class="wl-photostory">')
            for _, file_, alt, cap in images(d):
                main.append('<figure class="wl-frame"><img src="/media/%s/%s" alt="%s" width="1200" height="800" loading="lazy"><figcaption>%s</figcaption></figure>'
                            % (d.id, file_.replace('.jpg', '-1200.jpg'), attr(alt), esc(cap)))
            main.append('</div>')
        else:
            main.append('<div class="wl-story__body">')
            main += body_html(d, p='<p>{}</p>', h='<h2>{}</h2>', em='em')
            main.append('</div>')
        if p.origin_site:
            main.append('<p class="wl-credit">This piece first appeared on <a href="%s">%s</a> and appears here with the author\'s permission.</p>'
                        % (p.replica_of.url, esc(SITES[p.origin_site]['name'])))
        main += ['<footer class="wl-story__foot"><div class="wl-tags">Filed under: <a href="/%s/">%s</a></div>'
                 % ('photo-stories' if p.kind == 'image' else p.section, 'Photo stories' if p.kind == 'image' else esc(region)),
                 '<div class="wl-share">Share this story: <a href="https://share.example/x?u=%s">X</a> · <a href="https://share.example/fb?u=%s">Facebook</a> · <a href="mailto:?subject=%s">Email</a></div></footer>'
                 % (attr(p.url), attr(p.url), attr(d.title)),
                 '</article>']
    side = ['<aside class="wl-sidebar">',
            '<section><h2>Most popular</h2><ol>']
    side += ['<li><a href="%s">%s</a></li>' % (href(p, q), esc(q.title)) for q in c.popular(site)]
    side += ['</ol></section>',
             '<div class="ad"><small>Sponsored</small><a href="https://book.staysmart.example/?ref=wanderlane" rel="sponsored"><img src="/ads/staysmart-300x250.jpg" alt="StaySmart hotels" width="300" height="250"></a>'
             '<p>StaySmart: small hotels, free cancellation on most rooms.</p></div>',
             '<section><h2>Archives</h2><ul>']
    side += ['<li><a href="/archive/%d/%02d/">%s</a></li>' % (y, m, month_name(datetime.date(y, m, 1))) for y, m in c.archive_months(site)]
    side += ['</ul></section>', '<section><h2>Tags</h2><div class="wl-tagcloud">']
    side += ['<a href="/tag/%s/">%s</a>' % (t.replace(' ', '-'), esc(t)) for t in WL_TAGS]
    side += ['</div></section>',
             '<div class="ad"><small>Sponsored</small><a href="https://book.railpass.example/?ref=wl" rel="sponsored"><img src="/ads/railpass-300x600.jpg" alt="RailPass Europe" width="300" height="600"></a>'
             '<p>One pass, thirty-three countries. RailPass Europe.</p></div>',
             '</aside>']
    more = []
    if p.kind != 'hub':
        more = ['<section class="wl-more"><h2>More stories</h2><div class="wl-cards">']
        more += ['<div class="wl-card"><a href="%s"><img src="/media/%s/card-600.jpg" alt="" width="600" height="400" loading="lazy"><h3>%s</h3></a></div>'
                 % (href(p, q), q.doc.id, esc(q.title)) for q in c.related(p)]
        more += ['</div></section>']
    meta_title = [] if (d and d.htmltitle) else ['<meta property="og:title" content="%s">' % attr(p.title)]
    out = ['<!doctype html>',
           '<html lang="en">',
           '<head>',
           '<meta charset="utf-8">',
           '<title>%s</title>' % esc(title),
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           '<meta name="description" content="%s">' % attr(desc)]
    out += meta_title
    out += ['<meta property="og:type" content="%s">' % ('website' if p.kind == 'hub' else 'article'),
            '<meta property="og:site_name" content="Wanderlane">',
            '<meta name="twitter:site" content="@wanderlane">',
            '<link rel="canonical" href="%s">' % attr(p.url),
            '<link rel="preconnect" href="https://fonts.wanderlane.example">',
            '<style>', WL_CSS.strip('\n'), '</style>',
            '<script async src="https://stats.wanderlane.example/wl.js"></script>',
            '<script>', WL_HEAD_JS.strip('\n'), '</script>',
            '</head>',
            '<body class="wl">',
            '<header class="wl-masthead"><div class="wl-masthead__inner">',
            '<a class="wl-logo" href="/"><img src="/assets/wanderlane-wordmark.svg" alt="Wanderlane" width="220" height="40"></a>',
            '<button class="wl-menu-toggle" aria-expanded="false">Menu</button>',
            '<nav class="wl-nav" aria-label="Main">' + ''.join('<a href="%s">%s</a>' % (u, n) for n, u in WL_NAV) + '</nav>',
            '<a class="wl-subscribe" href="/subscribe/">Subscribe</a>',
            '</div></header>',
            '<main class="wl-main">']
    out += ['<div class="wl-content">'] + main + ['</div>'] + side
    out += ['</main>'] + more
    out += ['<footer class="wl-footer"><div class="wl-footer__grid">',
            '<div><img src="/assets/wanderlane-wordmark-light.svg" alt="Wanderlane" width="180" height="32"><p>The Slow Post arrives every other Sunday: one long story, three short trips and a train timetable we love.</p>'
            '<form class="wl-newsletter" action="/api/subscribe" method="post"><input type="email" name="email" placeholder="Your email"><button>Sign me up</button></form></div>',
            '<div><h3>Magazine</h3><p><a href="/about/">About</a><br><a href="/contributors/">Contributors</a><br><a href="/pitch/">Pitch us</a><br><a href="/advertise/">Advertise</a></p></div>',
            '<div><h3>Help</h3><p><a href="/contact/">Contact</a><br><a href="/faq/">FAQ</a><br><a href="/shop/returns/">Shop returns</a></p></div>',
            '</div>',
            '<div class="wl-footer__legal">&copy; 2024 Wanderlane Publishing. Some links on this site are affiliate links. '
            '<a href="/privacy/">Privacy</a> · <a href="/cookies/">Cookies</a> · <a href="/terms/">Terms</a> · <a href="/imprint/">Imprint</a></div>',
            '</footer>',
            '<div class="wl-cookie" hidden><p>We use cookies to understand which stories you read and to keep you signed in.</p><button type="button">Fine by me</button></div>',
            '<script>', WL_JS.strip('\n'), '</script>',
            '</body>',
            '</html>', '']
    return '\n'.join(out)


# ===========================================================================
# HealthCircle: a forum rendered by JavaScript; the real posts are only in
# the <noscript> fallback inside <main>.
# ===========================================================================

HC_NAV = [('Latest', '/latest'), ('Top', '/top'), ('Categories', '/categories'), ('Nutrition', '/c/nutrition/3'),
          ('Muscles &amp; Joints', '/c/muscles-joints/7'), ('Sleep', '/c/sleep/11'), ('Mental Health', '/c/mental-health/9'),
          ('Skin', '/c/skin/12'), ('Allergies', '/c/allergies/13'), ('Guidelines', '/guidelines'),
          ('Log in', '/login'), ('Sign up', '/signup')]
HC_TAGS = ['exercise', 'diet', 'physio', 'sleep', 'supplements', 'tests', 'pain', 'prevention',
           'winter', 'medication', 'recovery']
HC_SECTION_TAG = {'muscles-joints': 'physio', 'nutrition': 'diet', 'ears-eyes': 'prevention', 'digestive': 'diet',
                  'neurology': 'medication', 'vaccines': 'prevention', 'mental-health': 'winter', 'arthritis': 'diet',
                  'heart': 'tests', 'allergies': 'medication', 'sleep': 'sleep', 'skin': 'winter',
                  'kidneys': 'prevention', 'fitness': 'exercise'}

HC_CSS = """
:root{--hc-green:#2f7d6d;--hc-mint:#e7f4f1;--hc-text:#1d2b2a;--hc-grey:#6c7a79;--hc-line:#dde6e4}
body.hc{margin:0;font:15px/1.55 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,sans-serif;color:var(--hc-text);background:#f7faf9}
.hc-header{display:flex;align-items:center;gap:20px;padding:10px 24px;background:#fff;border-bottom:1px solid var(--hc-line)}
.hc-logo img{height:34px;display:block}
.hc-nav{display:flex;flex-wrap:wrap;gap:4px 16px}.hc-nav a{color:var(--hc-text);text-decoration:none;font-weight:500}
.hc-nav a:hover{color:var(--hc-green)}
.hc-layout{display:grid;grid-template-columns:260px minmax(0,1fr);gap:28px;max-width:1200px;margin:20px auto;padding:0 20px}
@media (max-width:820px){.hc-layout{grid-template-columns:1fr}.hc-sidebar{order:2}}
.hc-sidebar section{background:#fff;border:1px solid var(--hc-line);border-radius:8px;padding:14px;margin-bottom:18px}
.hc-sidebar h3{margin:0 0 8px;font-size:13px;text-transform:uppercase;letter-spacing:.06em;color:var(--hc-grey)}
.hc-sidebar ul{list-style:none;margin:0;padding:0}.hc-sidebar li{padding:4px 0}
.hc-sidebar a{color:var(--hc-text);text-decoration:none}
.hc-tag{display:inline-block;background:var(--hc-mint);border-radius:4px;padding:1px 8px;margin:0 4px 4px 0;font-size:13px}
.ad{border:1px solid var(--hc-line);background:#fff;border-radius:8px;padding:10px;text-align:center;font-size:13px;color:var(--hc-grey)}
.hc-sponsored{display:block;font-size:11px;text-transform:uppercase;letter-spacing:.1em;margin-bottom:4px}
.hc-banner{max-width:1200px;margin:10px auto 0}
.hc-app{min-height:40px}
.hc-spinner{width:28px;height:28px;border:3px solid var(--hc-line);border-top-color:var(--hc-green);border-radius:50%;animation:hcspin 1s linear infinite;margin:30px auto}
@keyframes hcspin{to{transform:rotate(360deg)}}
.hc-topic__title{font-size:26px;line-height:1.25;margin:0 0 6px}
.hc-topic__meta{color:var(--hc-grey);font-size:13px;margin-bottom:16px}
.hc-post{display:grid;grid-template-columns:56px 1fr;gap:4px 12px;background:#fff;border:1px solid var(--hc-line);border-radius:8px;padding:14px;margin-bottom:12px}
.hc-post--op{border-left:4px solid var(--hc-green)}
.hc-avatar{border-radius:50%;grid-row:span 2}
.hc-post__author a{font-weight:600;color:var(--hc-text)}.hc-post__date{font-size:12px;color:var(--hc-grey)}
.hc-post__body{grid-column:2}.hc-post__body p{margin:0 0 .8em}
.hc-post__body img{max-width:100%;border-radius:6px}
.hc-post__actions{grid-column:2;font-size:12px;color:var(--hc-grey)}
.hc-topic-list{width:100%;border-collapse:collapse;background:#fff}
.hc-topic-list th{text-align:left;font-size:12px;color:var(--hc-grey);border-bottom:2px solid var(--hc-line);padding:8px}
.hc-topic-list td{border-bottom:1px solid var(--hc-line);padding:10px 8px;vertical-align:top}
.hc-topic-list .title{font-weight:600;color:var(--hc-text);text-decoration:none}
.hc-excerpt{color:var(--hc-grey);font-size:13px;margin-top:2px}
.hc-disclaimer{font-size:12px;color:var(--hc-grey);border-top:1px solid var(--hc-line);margin-top:24px;padding-top:10px}
.hc-noscript__note{background:#fff8e1;border:1px solid #f1dca7;padding:8px 12px;border-radius:6px;font-size:13px}
.hc-footer{background:#fff;border-top:1px solid var(--hc-line);padding:28px 24px;font-size:13px;color:var(--hc-grey)}
.hc-footer a{color:var(--hc-green)}
"""

HC_BUNDLE = """
/* HealthCircle client bundle (topic, list and category routes) */
(function (w, d) {
  'use strict';
  var boot = w.HC_BOOT || {};
  var root = d.getElementById('hc-app');
  function h(tag, attrs, children) {
    var el = d.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') { el.textContent = attrs[k]; } else if (k === 'html') { el.innerHTML = attrs[k]; } else { el.setAttribute(k, attrs[k]); }
    });
    (children || []).forEach(function (c) { if (c) el.appendChild(c); });
    return el;
  }
  function relTime(iso) {
    var s = (Date.now() - new Date(iso).getTime()) / 1000;
    if (s < 3600) return Math.round(s / 60) + 'm';
    if (s < 86400) return Math.round(s / 3600) + 'h';
    if (s < 86400 * 30) return Math.round(s / 86400) + 'd';
    return new Date(iso).toLocaleDateString();
  }
  function renderPost(post, isFirst) {
    return h('div', { 'class': 'hc-post' + (isFirst ? ' hc-post--op' : ''), id: 'post_' + post.post_number }, [
      h('img', { 'class': 'hc-avatar', src: post.avatar_template.replace('{size}', '48'), alt: '', width: '48', height: '48' }),
      h('div', { 'class': 'hc-post__author' }, [h('a', { href: '/u/' + post.username, text: post.username })]),
      h('div', { 'class': 'hc-post__date', text: relTime(post.created_at) }),
      h('div', { 'class': 'hc-post__body', html: post.cooked }),
      h('div', { 'class': 'hc-post__actions', text: post.like_count + ' likes' })
    ]);
  }
  function renderTopic(data) {
    root.innerHTML = '';
    root.appendChild(h('h1', { 'class': 'hc-topic__title', text: data.title }));
    data.post_stream.posts.forEach(function (p, i) { root.appendChild(renderPost(p, i === 0)); });
  }
  function renderList(data) {
    var rows = data.topic_list.topics.map(function (t) {
      return h('tr', {}, [
        h('td', {}, [h('a', { 'class': 'title', href: '/t/' + t.slug + '/' + t.id, text: t.title })]),
        h('td', { text: String(t.posts_count - 1) }),
        h('td', { text: String(t.views) }),
        h('td', { text: relTime(t.bumped_at) })
      ]);
    });
    root.innerHTML = '';
    root.appendChild(h('table', { 'class': 'hc-topic-list' }, [h('tbody', {}, rows)]));
  }
  function load() {
    var url = boot.route === 'topic' ? '/t/' + boot.topicId + '.json' : (boot.listUrl || '/latest.json');
    fetch(url, { headers: { 'X-CSRF-Token': boot.csrf, 'Accept': 'application/json' }, credentials: 'same-origin' })
      .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); })
      .then(function (data) { (boot.route === 'topic' ? renderTopic : renderList)(data); })
      .catch(function (err) {
        root.innerHTML = '<p class="hc-error">Sorry, this page could not be loaded. Please refresh to try again.</p>';
        if (w.console) console.warn('[hc] load failed', err);
      });
  }
  if (d.readyState === 'loading') { d.addEventListener('DOMContentLoaded', load); } else { load(); }
  w.addEventListener('popstate', load);
})(window, document);
"""


def hc_post(user, when, paras, number, key, extra=''):
    return ('<div class="hc-post%s" id="post_%d"><img class="hc-avatar" src="/user_avatar/%s/48.png" alt="" width="48" height="48">'
            '<div class="hc-post__author"><a href="/u/%s">%s</a></div><div class="hc-post__date"><time datetime="%s">%s</time></div>'
            '<div class="hc-post__body">%s%s</div><div class="hc-post__actions">%d likes · Reply · Share · Flag</div></div>'
            % (' hc-post--op' if number == 1 else '', number, user, user, esc(user), when.isoformat(),
               '%s %d, %d' % (MONTHS[when.month - 1][:3], when.day, when.year), ''.join(paras), extra, num(key + 'l', 0, 35)))


def render_healthcircle(c, p):
    site, d = 'healthcircle', p.doc
    inner = []
    if p.kind == 'hub':
        title = '%s - HealthCircle Community' % p.title if p.path != 'index.html' else 'HealthCircle Community - peer support for everyday health'
        desc = 'HealthCircle is a friendly community for sharing experiences of everyday health conditions.'
        boot = {'route': 'list', 'listUrl': '/' + p.path.replace('.html', '.json'), 'csrf': 'hc-%08x' % num(p.path, 0, 2 ** 31)}
        inner.append('<h1 class="hc-topic__title">%s</h1>' % esc(p.title))
        for g in p.hub['groups']:
            inner.append('<h2 class="hc-list-heading">%s</h2>' % esc(g['heading']))
            inner.append('<table class="hc-topic-list"><thead><tr><th>Topic</th><th>Replies</th><th>Views</th><th>Activity</th></tr></thead><tbody>')
            for q in g['pages']:
                excerpt = '<div class="hc-excerpt">%s</div>' % esc(q.doc.summary) if g['teaser'] else ''
                replies = len([b for b in q.doc.blocks if b[0] == 'reply'])
                inner.append('<tr><td><a class="title" href="%s">%s</a><div class="hc-cat">%s</div>%s</td><td>%d</td><td>%d</td><td>%s</td></tr>'
                             % (href(p, q), esc(anchor(g, q)), esc(section_label(site, q.section)), excerpt, replies,
                                num(q.doc.id + 'v', 80, 4800), '%s %d' % (MONTHS[q.date.month - 1][:3], q.date.year)))
            inner.append('</tbody></table>')
    else:
        board = section_label(site, p.section)
        title = '%s - %s - HealthCircle Community' % (d.title, board)
        desc = d.summary
        boot = {'route': 'topic', 'topicId': int(p.url.rsplit('/', 1)[1]), 'categorySlug': p.section,
                'replyCount': len([b for b in d.blocks if b[0] == 'reply']), 'csrf': 'hc-%08x' % num(p.path, 0, 2 ** 31)}
        inner += ['<h1 class="hc-topic__title">%s</h1>' % esc(d.title),
                  '<div class="hc-topic__meta"><a href="/c/%s">%s</a> · <span class="hc-tag">%s</span></div>'
                  % (p.section, esc(board), HC_SECTION_TAG[p.section])]
        op = [('<p>%s</p>' % inline(b[1])) for b in d.blocks if b[0] == 'p']
        photos = ''.join('<p><img src="/uploads/default/original/%s" alt="%s" width="690" height="460"><br><em>%s</em></p>'
                         % (f, attr(alt), esc(cap)) for _, f, alt, cap in images(d))
        if d.intro:
            op.insert(0, '<p>%s</p>' % esc(d.intro))
        inner.append(hc_post(d.author, d.date, op, 1, d.id, photos))
        day = d.date
        for i, b in enumerate([b for b in d.blocks if b[0] == 'reply']):
            day = day + datetime.timedelta(days=num(d.id + str(i), 0, 2))
            inner.append(hc_post(b[1], day, ['<p>%s</p>' % inline(b[2])], i + 2, d.id + b[1] + str(i)))
    boot_json = json.dumps(boot, sort_keys=True)
    out = ['<!DOCTYPE html>',
           '<html lang="en">',
           '<head>',
           '<meta charset="utf-8">',
           '<title>%s</title>' % esc(title),
           '<meta name="description" content="%s">' % attr(desc),
           '<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">',
           '<meta name="theme-color" content="#2f7d6d">',
           '<meta property="og:site_name" content="HealthCircle Community">',
           '<meta property="og:title" content="%s">' % attr(p.title),
           '<meta name="twitter:card" content="summary">',
           '<link rel="canonical" href="%s">' % attr(p.url),
           '<link rel="manifest" href="/manifest.webmanifest">',
           '<style>', HC_CSS.strip('\n'), '</style>',
           '<script>window.HC_BOOT = %s;</script>' % boot_json,
           '</head>',
           '<body class="hc">',
           '<div class="hc-banner ad" data-ad="leaderboard"><span class="hc-sponsored">Sponsored</span>'
           '<a href="https://ads.healthads.example/c/vitalink" rel="sponsored"><img src="https://ads.healthads.example/img/vitalink-728x90.png" alt="Vitalink health checks" width="728" height="90"></a></div>',
           '<header class="hc-header">',
           '<a class="hc-logo" href="/"><img src="/uploads/default/hc-logo.svg" alt="HealthCircle" width="170" height="34"></a>',
           '<nav class="hc-nav">' + ''.join('<a href="%s">%s</a>' % (u, n) for n, u in HC_NAV) + '</nav>',
           '</header>',
           '<div class="hc-layout">',
           '<aside class="hc-sidebar">',
           '<section><h3>Most popular</h3><ul>' + ''.join('<li><a href="%s">%s</a></li>' % (href(p, q), esc(q.title)) for q in c.popular(site)) + '</ul></section>',
           '<div class="ad"><span class="hc-sponsored">Sponsored</span><a href="https://ads.healthads.example/c/stepwell" rel="sponsored">'
           '<img src="https://ads.healthads.example/img/stepwell-250x250.png" alt="Stepwell insoles" width="250" height="250"></a><p>Stepwell insoles: comfort for long days on your feet.</p></div>',
           '<section><h3>Archives</h3><ul>' + ''.join('<li><a href="/search?q=after:%d-%02d-01">%s %d</a></li>' % (y, m, MONTHS[m - 1], y) for y, m in c.archive_months(site)) + '</ul></section>',
           '<section><h3>Tags</h3>' + ''.join('<a class="hc-tag" href="/tag/%s">%s</a>' % (t, t) for t in HC_TAGS) + '</section>',
           '</aside>',
           '<main class="hc-main">',
           '<div id="hc-app" class="hc-app" aria-live="polite"><div class="hc-spinner" role="status"></div></div>',
           '<noscript>',
           '<div class="hc-noscript">',
           '<p class="hc-noscript__note">You are viewing a basic version of this page. Turn on JavaScript for the full HealthCircle experience.</p>']
    out += inner
    out += ['</div>',
            '</noscript>',
            '<div class="hc-disclaimer">Posts on HealthCircle are written by members about their own experience and are not medical advice. '
            'If you are worried about your health, speak to a doctor or pharmacist. In an emergency, call your local emergency number.</div>',
            '</main>',
            '</div>',
            '<footer class="hc-footer">',
            '<p><b>Weekly digest:</b> get the most helpful threads of the week in your inbox every Monday. <a href="/my/preferences/emails">Turn on the digest</a>.</p>',
            '<p>&copy; 2024 HealthCircle Community CIC. <a href="/tos">Terms of service</a> · <a href="/privacy">Privacy</a> · <a href="/guidelines">Community guidelines</a> · <a href="/cookies">Cookies</a> · <a href="/about">About</a></p>',
            '</footer>',
            '<script>', HC_BUNDLE.strip('\n'), '</script>',
            '</body>',
            '</html>', '']
    return '\n'.join(out)


# ===========================================================================
# Lumenframe: a photography journal; galleries are plates with captions.
# ===========================================================================

LF_NAV = [('Journal', '/journal'), ('Galleries', '/gallery'), ('Techniques', '/journal/techniques'),
          ('Darkroom', '/journal/darkroom'), ('Essays', '/journal/essays'), ('Reviews', '/journal/reviews'),
          ('Workshops', '/workshops'), ('Print shop', '/shop'), ('Submit', '/submit'), ('About', '/about')]
LF_TAGS = ['analogue', 'landscape', 'portrait', 'night', 'coast', 'black and white', 'macro',
           'alternative process', 'gear', 'exhibitions']

LF_CSS = """
@font-face{font-family:"Lumen Grotesk";src:url(/static/fonts/lumen-grotesk.woff2) format("woff2");font-display:swap}
html{background:#101010}
body.lf{margin:0;color:#e8e6e1;background:#101010;font:16px/1.6 "Lumen Grotesk",Helvetica,Arial,sans-serif}
a{color:#f2c94c}a:hover{color:#fff}
.lf-top{display:flex;align-items:center;justify-content:space-between;padding:18px 32px;border-bottom:1px solid #262626}
.lf-brand{display:flex;align-items:center;gap:10px;color:#fff;text-decoration:none;font-size:20px;letter-spacing:.2em;text-transform:uppercase}
.lf-brand img{width:36px;height:36px}
.lf-nav ul{display:flex;flex-wrap:wrap;gap:6px 22px;list-style:none;margin:0;padding:0}
.lf-nav a{color:#bdbab3;text-decoration:none;font-size:14px;letter-spacing:.06em}
.lf-wrap{display:grid;grid-template-columns:minmax(0,1fr) 280px;gap:56px;max-width:1320px;margin:0 auto;padding:40px 32px}
@media (max-width:980px){.lf-wrap{grid-template-columns:1fr}}
.lf-entry h1,.lf-series h1,.lf-index h1{font-weight:300;font-size:44px;line-height:1.1;margin:0 0 10px;color:#fff}
.lf-entry__section{color:#f2c94c;text-transform:uppercase;letter-spacing:.16em;font-size:12px;margin:0 0 8px}
.lf-entry__meta,.lf-series__meta{color:#8d8a84;font-size:14px}
.lf-entry__text{max-width:660px;font-size:18px;line-height:1.75;color:#d9d6cf}
.lf-entry__text strong{color:#fff;font-weight:600}
.lf-series__intro{max-width:620px;color:#bdbab3}
.lf-plates{display:grid;grid-template-columns:repeat(auto-fill,minmax(360px,1fr));gap:32px;margin-top:28px}
.lf-plate{margin:0}.lf-plate img{width:100%;height:auto;display:block;background:#1c1c1c;cursor:zoom-in}
.lf-plate figcaption{font-size:13px;color:#8d8a84;padding-top:8px}
.lf-cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:28px}
.lf-card a{color:#fff;text-decoration:none}.lf-card img{width:100%;display:block;filter:grayscale(.2)}
.lf-card h3{font-weight:400;font-size:19px;margin:10px 0 4px}.lf-card p{color:#8d8a84;font-size:14px;margin:0}
.lf-index h2,.lf-aside h2{font-weight:400;font-size:13px;text-transform:uppercase;letter-spacing:.2em;color:#8d8a84;border-bottom:1px solid #262626;padding-bottom:6px;margin-top:36px}
.lf-aside ul{list-style:none;padding:0;margin:0}.lf-aside li{padding:5px 0;font-size:14px}
.lf-aside a{color:#d9d6cf;text-decoration:none}
.lf-tags a{display:inline-block;border:1px solid #3a3a3a;padding:2px 10px;margin:0 6px 6px 0;font-size:12px;border-radius:2px}
.ad{border:1px solid #262626;padding:12px;margin:28px 0;text-align:center;font-size:13px;color:#8d8a84}
.ad .lf-sponsor{display:block;font-size:10px;letter-spacing:.24em;text-transform:uppercase;margin-bottom:8px}
.lf-foot{border-top:1px solid #262626;padding:36px 32px;color:#8d8a84;font-size:13px}
.lf-foot a{color:#bdbab3}
.lf-lightbox{position:fixed;inset:0;background:rgba(0,0,0,.94);display:flex;align-items:center;justify-content:center;z-index:100}
.lf-lightbox img{max-width:94vw;max-height:90vh}
.lf-lightbox button{position:absolute;top:16px;right:20px;background:none;border:0;color:#fff;font-size:28px}
"""

LF_HEAD_JS = """
document.documentElement.classList.add('js');
window.lfPrefs = JSON.parse(localStorage.getItem('lf-prefs') || '{"theme":"dark","grid":"large"}');
"""

LF_JS = """
(function () {
  var plates = Array.prototype.slice.call(document.querySelectorAll('.lf-plate img'));
  var current = -1, box = null;
  function show(i) {
    current = (i + plates.length) % plates.length;
    var src = plates[current].getAttribute('data-full') || plates[current].src;
    if (!box) {
      box = document.createElement('div');
      box.className = 'lf-lightbox';
      box.innerHTML = '<img alt=""><button type="button" aria-label="Close">&times;</button>';
      box.addEventListener('click', function (e) { if (e.target === box || e.target.tagName === 'BUTTON') close(); });
      document.body.appendChild(box);
    }
    box.querySelector('img').src = src;
    box.style.display = 'flex';
  }
  function close() { if (box) box.style.display = 'none'; current = -1; }
  plates.forEach(function (img, i) { img.addEventListener('click', function () { show(i); }); });
  document.addEventListener('keydown', function (e) {
    if (current < 0) return;
    if (e.key === 'ArrowRight') show(current + 1);
    else if (e.key === 'ArrowLeft') show(current - 1);
    else if (e.key === 'Escape') close();
  });
  var sheet = document.querySelector('.lf-contact-sheet');
  if (sheet) {
    sheet.addEventListener('submit', function (e) {
      e.preventDefault();
      var xhr = new XMLHttpRequest();
      xhr.open('POST', '/newsletter/subscribe');
      xhr.onload = function () { sheet.innerHTML = '<p>Thank you. The next Contact Sheet arrives on the first of the month.</p>'; };
      xhr.send(new FormData(sheet));
    });
  }
  if (navigator.sendBeacon) {
    window.addEventListener('pagehide', function () {
      navigator.sendBeacon('/stats/view', JSON.stringify({ path: location.pathname, plates: plates.length, prefs: window.lfPrefs }));
    });
  }
})();
"""


def render_lumenframe(c, p):
    site, d = 'lumenframe', p.doc
    main = []
    if p.kind == 'hub':
        title = '%s — Lumenframe' % p.title if p.path != 'index.html' else p.title
        desc = 'Lumenframe: essays, techniques and galleries for people who love photographs.'
        main += ['<section class="lf-index">', '<h1>%s</h1>' % esc(p.title)]
        for g in p.hub['groups']:
            main.append('<h2>%s</h2>' % esc(g['heading']))
            if g['teaser']:
                main.append('<div class="lf-cards">')
                for q in g['pages']:
                    thumb = '/images/series/%s/cover-640.jpg' % q.doc.id if q.kind == 'image' else '/images/journal/%s/lead-640.jpg' % q.doc.id
                    main.append('<div class="lf-card"><a href="%s"><img src="%s" alt="" width="640" height="427" loading="lazy"><h3>%s</h3></a><p>%s</p></div>'
                                % (href(p, q), thumb, esc(anchor(g, q)), esc(q.doc.summary)))
                main.append('</div>')
            else:
                main.append('<ul class="lf-list">' + ''.join('<li><a href="%s">%s</a></li>' % (href(p, q), esc(anchor(g, q))) for q in g['pages']) + '</ul>')
        main.append('</section>')
    else:
        title = '%s — Lumenframe' % d.title
        desc = d.summary
        stamp = d.date.strftime('%d.%m.%Y')
        if p.kind == 'image':
            imgs = images(d)
            main += ['<article class="lf-series">',
                     '<header><h1>%s</h1><p class="lf-series__meta">Photographs by %s · %d frames · %s</p>'
                     % (esc(d.title), esc(d.author), len(imgs), stamp),
                     '<p class="lf-series__intro">%s</p></header>' % esc(d.intro),
                     '<div class="lf-plates">']
            for _, file_, alt, cap in imgs:
                main.append('<figure class="lf-plate"><img src="/images/series/%s/%s" data-full="/images/series/%s/full/%s" alt="%s" width="1200" height="800" loading="lazy"><figcaption>%s</figcaption></figure>'
                            % (d.id, file_, d.id, file_, attr(alt), esc(cap)))
            main += ['</div>',
                     '<footer class="lf-series__foot"><p>Prints from this series are available in the <a href="/shop">print shop</a>, made to order on fibre paper.</p></footer>',
                     '</article>']
        else:
            main += ['<article class="lf-entry">',
                     '<header><p class="lf-entry__section">%s</p><h1>%s</h1><p class="lf-entry__meta">By %s — %s</p></header>'
                     % (esc(section_label(site, p.section)), esc(d.title), esc(d.author), stamp),
                     '<div class="lf-entry__text">']
            main += body_html(d, p='<p>{}</p>', h='<h2>{}</h2>', em='strong')
            main += ['</div>',
                     '<footer class="lf-entry__foot"><p>Filed in <a href="/journal/%s">%s</a>. Questions or corrections: <a href="mailto:journal@lumenframe.example">journal@lumenframe.example</a></p></footer>'
                     % (p.section, esc(section_label(site, p.section))),
                     '</article>']
    aside = ['<aside class="lf-aside">',
             '<h2>Most popular</h2><ul>' + ''.join('<li><a href="%s">%s</a></li>' % (href(p, q), esc(q.title)) for q in c.popular(site)) + '</ul>',
             '<div class="ad"><span class="lf-sponsor">Sponsored</span><a href="https://silverhalide-lab.example/?utm_source=lumenframe" rel="sponsored">'
             '<img src="/static/partners/silverhalide-260x260.jpg" alt="Silver Halide Lab" width="260" height="260"></a><p>Silver Halide Lab: hand processing and scans, posted back in five days.</p></div>',
             '<h2>Archives</h2><ul>' + ''.join('<li><a href="/archive/%d/%02d">%s %d</a></li>' % (y, m, MONTHS[m - 1], y) for y, m in c.archive_months(site)) + '</ul>',
             '<h2>Tags</h2><div class="lf-tags">' + ''.join('<a href="/tag/%s">%s</a>' % (t.replace(' ', '-'), esc(t)) for t in LF_TAGS) + '</div>',
             '</aside>']
    out = ['<!DOCTYPE html>',
           '<html lang="en">',
           '<head>',
           '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           '<title>%s</title>' % esc(title),
           '<meta name="description" content="%s">' % attr(desc),
           '<meta property="og:title" content="%s">' % attr(p.title),
           '<meta property="og:image" content="https://lumenframe.example/images/og/%s.jpg">' % (d.id if d else 'default'),
           '<meta name="color-scheme" content="dark">',
           '<link rel="canonical" href="%s">' % attr(p.url),
           '<style>', LF_CSS.strip('\n'), '</style>',
           '<script>', LF_HEAD_JS.strip('\n'), '</script>',
           '</head>',
           '<body class="lf lf--%s">' % p.kind,
           '<header class="lf-top">',
           '<a class="lf-brand" href="/"><img src="/static/lumenframe-mark.png" alt="Lumenframe" width="36" height="36"><span>Lumenframe</span></a>',
           '<nav class="lf-nav"><ul>' + ''.join('<li><a href="%s">%s</a></li>' % (u, n) for n, u in LF_NAV) + '</ul></nav>',
           '</header>',
           '<div class="lf-wrap">',
           '<main class="lf-main">']
    out += main
    out += ['</main>'] + aside + ['</div>',
            '<footer class="lf-foot">',
            '<form class="lf-contact-sheet" action="/newsletter/subscribe" method="post"><p><b>Contact Sheet</b> is our monthly letter: new galleries, one technique and one photobook worth finding. '
            '<input type="email" name="email" placeholder="email"> <button>Subscribe</button></p></form>',
            '<p>&copy; 2024 Lumenframe. Photographs remain the copyright of their authors. <a href="/privacy">Privacy</a> · <a href="/terms">Terms</a> · <a href="/licensing">Image licensing</a> · <a href="/imprint">Imprint</a></p>',
            '</footer>',
            '<script>', LF_JS.strip('\n'), '</script>',
            '</body>',
            '</html>', '']
    return '\n'.join(out)


# ===========================================================================
# 晨报 Chenbao: a Chinese news portal, UTF-8 with <meta charset="utf-8">.
# ===========================================================================

CB_NAV = [('首页', '/'), ('要闻', '/news/'), ('社会', '/society/'), ('经济', '/economy/'), ('环境', '/environment/'),
          ('交通', '/transport/'), ('农业', '/agriculture/'), ('教育', '/education/'), ('文化', '/culture/'),
          ('体育', '/sports/'), ('图片', '/photo/'), ('评论', '/opinion/'), ('专题', '/special/')]
CB_TAGS = ['民生', '城市治理', '生态保护', '乡村振兴', '新能源', '养老服务', '交通出行', '校园', '文旅', '垃圾分类']
CB_EDITORS = ['王琳', '陈默', '张若凡', '李晓东']

CB_CSS = """
*{margin:0;padding:0;box-sizing:border-box}
body{font:14px/1.8 "PingFang SC","Microsoft YaHei","Hiragino Sans GB",SimSun,sans-serif;color:#222;background:#f4f4f4}
a{color:#222;text-decoration:none}a:hover{color:#c00;text-decoration:underline}
ul,ol{list-style:none}
.w1200{width:1200px;margin:0 auto}
.topbar{background:#333;color:#ccc;font-size:12px;height:32px;line-height:32px}
.topbar a{color:#ccc;margin:0 8px}
.cb-header{background:#fff;padding:16px 0}
.cb-header .w1200{display:flex;justify-content:space-between;align-items:center}
.cb-header .logo img{height:64px}
.cb-nav{background:#b30000;height:46px}
.cb-nav li{float:left}.cb-nav a{display:block;color:#fff;font-size:16px;padding:0 17px;line-height:46px}
.cb-nav a:hover,.cb-nav .on a{background:#8c0000;text-decoration:none}
.cb-body{display:flex;gap:30px;background:#fff;padding:20px 30px;margin-top:14px}
.cb-left{flex:1;min-width:0}.cb-right{width:300px}
.crumb{font-size:12px;color:#888;padding-bottom:10px;border-bottom:1px solid #eee;margin-bottom:16px}
.cb-article h1{font-size:30px;line-height:1.4;font-weight:700;text-align:center;margin:10px 0}
.cb-article .info{text-align:center;font-size:13px;color:#888;padding-bottom:12px;border-bottom:1px dashed #ddd}
.cb-article .info span{margin:0 10px}
.cb-article .summary{background:#f7f7f7;border-left:3px solid #b30000;padding:10px 14px;margin:16px 0;color:#555}
.article-content{font-size:17px;line-height:2;color:#333}
.article-content p{margin:0 0 18px;text-align:justify}
.article-content strong{color:#000}
.article-content .pic{text-align:center;margin:20px 0}.article-content .pic img{max-width:720px}
.article-content .pic-desc{font-size:14px;color:#666;text-align:center;margin-top:6px}
.editor{text-align:right;color:#999;font-size:13px}
.share{margin:20px 0;color:#666}.share a{margin-right:10px}
.related h3,.box h3,.list-box h2{font-size:18px;border-bottom:2px solid #b30000;padding-bottom:6px;margin:20px 0 10px}
.related li,.box li,.news-list li{line-height:32px;border-bottom:1px dotted #e5e5e5;overflow:hidden;white-space:nowrap;text-overflow:ellipsis}
.news-list li .time{float:right;color:#999;font-size:12px}
.news-list li p{white-space:normal;color:#666;font-size:13px;line-height:1.6;padding-bottom:8px}
.box .rank{display:inline-block;width:20px;height:20px;line-height:20px;text-align:center;background:#ccc;color:#fff;margin-right:8px;font-size:12px}
.box li:nth-child(-n+3) .rank{background:#b30000}
.tag-list a{display:inline-block;border:1px solid #ddd;padding:0 10px;margin:0 8px 8px 0;font-size:12px;border-radius:12px}
.ad{margin:14px 0;text-align:center;position:relative}
.ad .gg{position:absolute;right:0;bottom:0;background:rgba(0,0,0,.4);color:#fff;font-size:12px;padding:0 4px}
.cb-footer{background:#fff;border-top:3px solid #b30000;margin-top:20px;padding:24px 0;text-align:center;color:#777;font-size:12px}
.cb-footer a{color:#555;margin:0 8px}
.backtop{position:fixed;right:20px;bottom:60px;width:44px;height:44px;background:#b30000;color:#fff;text-align:center;line-height:44px;display:none}
"""

CB_HEAD_JS = """
var _cbq = _cbq || [];
_cbq.push(['_setAccount', 'CB-000271']);
_cbq.push(['_trackPageview']);
(function () {
  var ua = navigator.userAgent.toLowerCase();
  var isMobile = /iphone|android|mobile|ipad/.test(ua);
  if (isMobile && location.search.indexOf('pc=1') === -1) {
    var target = location.href.replace('://www.', '://m.');
    if (target !== location.href) { location.replace(target); }
  }
})();
"""

CB_JS = """
(function () {
  var backTop = document.createElement('a');
  backTop.className = 'backtop';
  backTop.href = 'javascript:;';
  backTop.innerHTML = '顶部';
  document.body.appendChild(backTop);
  window.onscroll = function () {
    backTop.style.display = (document.documentElement.scrollTop || document.body.scrollTop) > 600 ? 'block' : 'none';
  };
  backTop.onclick = function () { window.scrollTo(0, 0); };
  var size = 17;
  var box = document.querySelector('.article-content');
  var btns = document.querySelectorAll('[data-font]');
  for (var i = 0; i < btns.length; i++) {
    btns[i].onclick = function () {
      size = this.getAttribute('data-font') === '+' ? Math.min(size + 1, 24) : Math.max(size - 1, 12);
      if (box) box.style.fontSize = size + 'px';
      return false;
    };
  }
  var hm = document.createElement('script');
  hm.src = 'https://stat.chenbao.example/cb.js?v=20240601';
  var s = document.getElementsByTagName('script')[0];
  s.parentNode.insertBefore(hm, s);
})();
"""


def render_chenbao(c, p):
    site, d = 'chenbao', p.doc
    left = []
    if p.kind == 'hub':
        title = '%s_晨报网' % p.title if p.path != 'index.html' else '晨报网_权威新闻 本地资讯'
        desc = '晨报网是晨报社主办的新闻网站，提供本地要闻、社会民生、经济、环境、教育、文化等新闻资讯。'
        crumb = '<div class="crumb">您当前的位置：<a href="/">首页</a> &gt; %s</div>' % esc(p.title)
        left.append(crumb)
        left.append('<h1 class="list-title">%s</h1>' % esc(p.title))
        for g in p.hub['groups']:
            left.append('<div class="list-box"><h2>%s</h2><ul class="news-list">' % esc(g['heading']))
            for q in g['pages']:
                teaser = '<p>%s</p>' % esc(q.doc.summary) if g['teaser'] else ''
                left.append('<li><span class="time">%s</span><a href="%s" target="_blank">%s</a>%s</li>'
                            % (q.date.strftime('%m-%d'), href(p, q), esc(anchor(g, q)), teaser))
            left.append('</ul></div>')
        left.append('<div class="pages"><span class="cur">1</span><a href="?page=2">2</a><a href="?page=3">3</a><a href="?page=2">下一页</a></div>')
    else:
        sec = section_label(site, p.section)
        title = '%s_%s_晨报网' % (d.title, sec)
        desc = d.summary
        left += ['<div class="crumb">您当前的位置：<a href="/">首页</a> &gt; <a href="/%s/">%s</a> &gt; 正文</div>' % (p.section, esc(sec)),
                 '<article class="cb-article">',
                 '<h1>%s</h1>' % esc(d.title),
                 '<div class="info"><span class="time">%s %s</span><span class="source">来源：晨报</span><span class="author">%s：%s</span>'
                 '<span class="font">字号：<a href="#" data-font="+">大</a> <a href="#" data-font="-">小</a></span></div>'
                 % (d.date.isoformat(), clock(d.id), '摄影' if p.kind == 'image' else '作者', esc(d.author.replace('摄影 ', ''))),
                 '<div class="summary"><b>【导读】</b>%s</div>' % esc(d.intro if p.kind == 'image' else d.summary),
                 '<div class="article-content">']
        if p.kind == 'image':
            for _, file_, alt, cap in images(d):
                left.append('<div class="pic"><img src="/photo/%s/%s" alt="%s" width="720" height="480"><p class="pic-desc">%s</p></div>'
                            % (d.date.strftime('%Y%m'), file_, attr(alt), esc(cap)))
        else:
            left += body_html(d, p='<p>　　{}</p>', h='<h2>{}</h2>', em='strong')
        left += ['</div>',
                 '<div class="editor">（责任编辑：%s）</div>' % CB_EDITORS[num(d.id, 0, 3)],
                 '<div class="share">分享到：<a href="#" class="wx">微信</a><a href="#" class="wb">微博</a><a href="#" class="qz">QQ空间</a></div>',
                 '</article>',
                 '<div class="related"><h3>相关新闻</h3><ul>']
        left += ['<li><a href="%s">%s</a></li>' % (href(p, q), esc(q.title)) for q in c.related(p, 4)]
        left += ['</ul></div>']
    right = ['<div class="box"><h3>热点排行</h3><ol>']
    right += ['<li><span class="rank">%d</span><a href="%s">%s</a></li>' % (i + 1, href(p, q), esc(q.title)) for i, q in enumerate(c.popular(site))]
    right += ['</ol></div>',
              '<div class="ad ad-side"><a href="https://ad.chenbao.example/click?id=2231" target="_blank" rel="sponsored"><img src="/ad/2024/lvyou-300x250.jpg" alt="山水文旅年卡" width="300" height="250"></a><span class="gg">广告</span>'
              '<p>山水文旅年卡限时优惠，全市三十余家景区一卡畅游。</p></div>',
              '<div class="box"><h3>往期回顾</h3><ul>']
    right += ['<li><a href="/roll.html?month=%d%02d">%d年%d月</a></li>' % (y, m, y, m) for y, m in c.archive_months(site)]
    right += ['</ul></div>', '<div class="box"><h3>热门标签</h3><div class="tag-list">']
    right += ['<a href="/tag/%d.html">%s</a>' % (i + 101, t) for i, t in enumerate(CB_TAGS)]
    right += ['</div></div>']
    cur = p.section if d else ''
    out = ['<!DOCTYPE html>',
           '<html lang="zh-CN">',
           '<head>',
           '<meta charset="utf-8">',
           '<meta http-equiv="X-UA-Compatible" content="IE=edge">',
           '<meta name="viewport" content="width=1200">',
           '<title>%s</title>' % esc(title),
           '<meta name="keywords" content="晨报,晨报网,新闻,%s">' % attr(section_label(site, cur) if d else '本地新闻'),
           '<meta name="description" content="%s">' % attr(desc)]
    if d:
        out += ['<meta name="ArticleTitle" content="%s">' % attr(d.title),
                '<meta name="PubDate" content="%s %s">' % (d.date.isoformat(), clock(d.id)),
                '<meta name="ContentSource" content="晨报">']
    out += ['<link rel="canonical" href="%s">' % attr(p.url),
            '<style>', CB_CSS.strip('\n'), '</style>',
            '<script>', CB_HEAD_JS.strip('\n'), '</script>',
            '</head>',
            '<body>',
            '<div class="topbar"><div class="w1200"><a href="/">晨报网</a>|<a href="/app/">新闻客户端</a>|<a href="/epaper/">数字报</a>|<a href="/login">登录</a>|<a href="/register">注册</a></div></div>',
            '<header class="cb-header"><div class="w1200">',
            '<a class="logo" href="/"><img src="/images/chenbao-logo.png" alt="晨报网" width="260" height="64"></a>',
            '<div class="ad ad-top"><a href="https://ad.chenbao.example/click?id=1180" target="_blank" rel="sponsored"><img src="/ad/2024/jiadian-728x90.jpg" alt="家电以旧换新" width="728" height="90"></a><span class="gg">广告</span></div>',
            '</div></header>',
            '<nav class="cb-nav"><div class="w1200"><ul>']
    out += ['<li%s><a href="%s">%s</a></li>' % (' class="on"' if u == '/%s/' % cur else '', u, n) for n, u in CB_NAV]
    out += ['</ul></div></nav>',
            '<div class="w1200 cb-body">',
            '<div class="cb-left">']
    out += left
    out += ['</div>', '<aside class="cb-right">'] + right + ['</aside>', '</div>',
            '<footer class="cb-footer">',
            '<p><a href="/about/">关于我们</a>|<a href="/contact/">联系我们</a>|<a href="/ads/">广告服务</a>|<a href="/copyright/">版权声明</a>|<a href="/privacy/">隐私政策</a>|<a href="/sitemap/">网站地图</a></p>',
            '<p>订阅“晨报早知道”电子简报，每天早上七点把当日要闻送到您的邮箱。<a href="/newsletter/">立即订阅</a></p>',
            '<p>版权所有 &copy; 晨报社 未经书面授权不得转载、摘编 &nbsp; 示ICP备00000000号 &nbsp; 违法和不良信息举报电话：000-00000000</p>',
            '</footer>',
            '<script>', CB_JS.strip('\n'), '</script>',
            '</body>',
            '</html>', '']
    return '\n'.join(out)


# ===========================================================================
# 文苑 Wenyuan: an older XHTML site stored as GBK bytes with NO charset
# declaration anywhere (no meta, no BOM, the word does not even appear).
# ===========================================================================

WY_NAV = [('首页', '/'), ('历史', '/list/history.html'), ('民俗', '/list/folk.html'), ('工艺', '/list/craft.html'),
          ('音乐', '/list/music.html'), ('戏曲', '/list/opera.html'), ('科技', '/list/technology.html'),
          ('科技史', '/list/science-history.html'), ('资讯', '/list/news.html'), ('图集', '/list/photo.html'),
          ('论坛', '/bbs/'), ('关于', '/about.html')]
WY_TAGS = ['非物质文化遗产', '传统工艺', '古代科技', '茶文化', '戏曲', '民间艺术', '古籍', '建筑', '围棋', '节气']

WY_CSS = """
body{margin:0;padding:0;font-size:12px;font-family:"宋体",Arial;color:#333;background:#f1ece1}
a{color:#333;text-decoration:none}a:hover{color:#a0410d;text-decoration:underline}
ul,li{margin:0;padding:0;list-style:none}
img{border:0}
#wrap{width:960px;margin:0 auto;background:#fff}
#top{height:80px;background:url(/images/top_bg.jpg) no-repeat}
#top .logo{float:left;padding:10px 0 0 15px}
#top .toplinks{float:right;padding:12px 15px 0 0;color:#999}
#nav{height:34px;background:#7b3f14;clear:both}
#nav li{float:left;line-height:34px}
#nav li a{display:block;padding:0 17px;color:#fff;font-size:14px;font-weight:bold}
#nav li a:hover{background:#a0410d;text-decoration:none}
.ad_banner{margin:8px 10px;text-align:center}
#main{overflow:hidden;padding:10px}
#left{float:left;width:660px}
#right{float:right;width:270px}
.position{height:28px;line-height:28px;border-bottom:1px solid #e3d7c3;color:#666}
.article h1{font-size:22px;font-family:"黑体";text-align:center;color:#7b3f14;margin:18px 0 10px}
.arcinfo{text-align:center;color:#999;border-bottom:1px dotted #ccc;padding-bottom:8px}
.content{font-size:14px;line-height:26px;padding:15px 10px}
.content p{text-indent:2em;margin:0 0 12px}
.content strong{color:#7b3f14}
.content .tu{text-align:center;text-indent:0}
.pagebreak{text-align:right;color:#666;padding:6px 10px}
.relate h3,.sbox h3,.lbox h2{height:28px;line-height:28px;background:#f6f0e5;border-left:4px solid #7b3f14;padding-left:8px;font-size:14px;margin:10px 0 6px}
.relate li,.sbox li,.lbox li{line-height:24px;padding-left:12px;background:url(/images/dot.gif) no-repeat 2px 10px}
.lbox li span{float:right;color:#999}
.lbox li p{color:#777;line-height:20px}
.ad{border:1px solid #e3d7c3;margin:10px 0;text-align:center;padding:4px}
.ad em{display:block;font-style:normal;color:#aaa;text-align:right}
.tags a{display:inline-block;margin:0 6px 6px 0;color:#a0410d}
#footer{clear:both;border-top:3px solid #7b3f14;text-align:center;line-height:22px;padding:10px;color:#666;background:#f6f0e5}
"""

WY_HEAD_JS = """
function AddFavorite(sURL, sTitle) {
  try { window.external.addFavorite(sURL, sTitle); }
  catch (e) {
    try { window.sidebar.addPanel(sTitle, sURL, ""); }
    catch (e2) { alert("加入收藏失败，请使用Ctrl+D进行添加"); }
  }
}
function SetHome(obj, url) {
  try { obj.style.behavior = 'url(#default#homepage)'; obj.setHomePage(url); }
  catch (e) { alert("您的浏览器不支持此操作，请手动设置首页。"); }
}
"""

WY_JS = """
var wy_hits = document.getElementById("hits");
if (wy_hits) {
  var req = window.XMLHttpRequest ? new XMLHttpRequest() : new ActiveXObject("Microsoft.XMLHTTP");
  req.open("GET", "/plus/count.php?aid=" + wy_hits.getAttribute("title") + "&r=" + Math.random(), true);
  req.onreadystatechange = function () {
    if (req.readyState == 4 && req.status == 200) { wy_hits.innerHTML = req.responseText; }
  };
  req.send(null);
}
function doZoom(size) {
  var el = document.getElementById("zoom");
  if (el) { el.style.fontSize = size + "px"; el.style.lineHeight = (size * 1.9) + "px"; }
}
var _wyStat = document.createElement("img");
_wyStat.src = "http://stat.wenyuan.example/s.gif?u=" + escape(location.href) + "&ref=" + escape(document.referrer);
"""


def render_wenyuan(c, p):
    site, d = 'wenyuan', p.doc
    left = []
    if p.kind == 'hub':
        title = '%s - 文苑' % p.title if p.path != 'index.html' else '文苑 - 传统文化与科技的园地'
        desc = '文苑：介绍传统工艺、民俗、戏曲、古代科技与数字时代的文化传承。'
        left.append('<div class="position">当前位置：<a href="/">文苑</a> &gt;&gt; %s</div>' % esc(p.title))
        left.append('<h1 class="ltitle">%s</h1>' % esc(p.title))
        for g in p.hub['groups']:
            left.append('<div class="lbox"><h2>%s</h2><ul>' % esc(g['heading']))
            for q in g['pages']:
                teaser = '<p>%s</p>' % esc(q.doc.summary) if g['teaser'] else ''
                left.append('<li><span>%s</span><a href="%s" target="_blank">%s</a>%s</li>'
                            % (q.date.isoformat(), href(p, q), esc(anchor(g, q)), teaser))
            left.append('</ul></div>')
    else:
        sec = section_label(site, p.section)
        title = d.htmltitle or '%s - %s - 文苑' % (d.title, sec)
        desc = d.summary
        source = SITES[p.origin_site]['name'] if p.origin_site else '文苑'
        left += ['<div class="position">当前位置：<a href="/">文苑</a> &gt;&gt; <a href="/list/%s.html">%s</a> &gt;&gt; 正文</div>' % (p.section, esc(sec)),
                 '<div class="article">',
                 '<h1>%s</h1>' % esc(d.title),
                 '<div class="arcinfo">作者：%s &nbsp; 来源：%s &nbsp; 发布时间：%d年%02d月%02d日 &nbsp; 点击：<span id="hits" title="%s">%d</span> &nbsp; 【字号：<a href="javascript:doZoom(16)">大</a> <a href="javascript:doZoom(14)">中</a> <a href="javascript:doZoom(12)">小</a>】</div>'
                 % (esc(d.author), source, d.date.year, d.date.month, d.date.day, d.id, num(d.id, 200, 9000)),
                 '<div class="content" id="zoom">']
        if p.kind == 'image':
            left.append('<p>%s</p>' % esc(d.intro))
            for _, file_, alt, cap in images(d):
                left.append('<p class="tu"><img src="/uploads/allimg/%s/%s" alt="%s" width="600" height="400" /><br />%s</p>'
                            % (d.date.strftime('%y%m'), file_, attr(alt), esc(cap)))
        else:
            left += body_html(d, p='<p>{}</p>', h='<h2>{}</h2>', em='strong')
        left += ['</div>',
                 '<div class="pagebreak">【<a href="/print.php?id=%s" target="_blank">打印本页</a>】【<a href="javascript:AddFavorite(location.href, document.title)">收藏本文</a>】【<a href="javascript:window.close()">关闭窗口</a>】</div>' % d.id,
                 '</div>',
                 '<div class="relate"><h3>相关文章</h3><ul>']
        left += ['<li><a href="%s">%s</a></li>' % (href(p, q), esc(q.title)) for q in c.related(p, 5)]
        left += ['</ul></div>']
    right = ['<div class="sbox"><h3>热门文章</h3><ul>']
    right += ['<li><a href="%s">%s</a></li>' % (href(p, q), esc(q.title)) for q in c.popular(site)]
    right += ['</ul></div>',
              '<div class="ad"><a href="http://www.moxiang-shop.example/?from=wy" target="_blank"><img src="/ad/moxiang_260x200.gif" alt="墨香斋文房四宝" width="260" height="200" /></a><br />墨香斋：湖笔徽墨，宣纸端砚，全国包邮。<em>广告</em></div>',
              '<div class="sbox"><h3>文章归档</h3><ul>']
    right += ['<li><a href="/list/archive.php?ym=%d%02d">%d年%02d月</a></li>' % (y, m, y, m) for y, m in c.archive_months(site)]
    right += ['</ul></div>', '<div class="sbox tags"><h3>标签</h3>']
    right += ['<a href="/tags.php?/%s/">%s</a>' % (t, t) for t in WY_TAGS]
    right += ['</div>']
    out = ['<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">',
           '<html xmlns="http://www.w3.org/1999/xhtml">',
           '<head>',
           '<title>%s</title>' % esc(title),
           '<meta name="keywords" content="文苑,传统文化,%s" />' % attr(section_label(site, p.section) if d else '文化'),
           '<meta name="description" content="%s" />' % attr(desc),
           '<meta name="robots" content="all" />',
           '<link href="/templets/default/style/global.css" rel="stylesheet" type="text/css" />',
           '<style type="text/css">', WY_CSS.strip('\n'), '</style>',
           '<script type="text/javascript">', WY_HEAD_JS.strip('\n'), '</script>',
           '</head>',
           '<body>',
           '<div id="wrap">',
           '<div id="top"><div class="logo"><a href="/"><img src="/images/wenyuan_logo.gif" alt="文苑" width="200" height="60" /></a></div>'
           '<div class="toplinks"><a href="javascript:SetHome(this, \'http://www.wenyuan.example/\')">设为首页</a> | <a href="javascript:AddFavorite(\'http://www.wenyuan.example/\', \'文苑\')">加入收藏</a> | <a href="/tougao.html">投稿</a> | <a href="/contact.html">联系我们</a></div></div>',
           '<div id="nav"><ul>' + ''.join('<li><a href="%s">%s</a></li>' % (u, n) for n, u in WY_NAV) + '</ul></div>',
           '<div class="ad ad_banner"><a href="http://www.guqin-hall.example/" target="_blank"><img src="/ad/guqin_940x80.jpg" alt="听松琴馆 古琴课程招生" width="940" height="80" /></a><em>广告</em></div>',
           '<div id="main">',
           '<div id="left">']
    out += left
    out += ['</div>', '<div id="right">'] + right + ['</div>', '</div>',
            '<div id="footer">',
            '<a href="/about.html">关于我们</a> | <a href="/contact.html">联系方式</a> | <a href="/copyright.html">版权声明</a> | <a href="/privacy.html">隐私保护</a> | <a href="/links.html">友情链接</a><br />',
            '订阅《文苑周刊》：每周五把一周新文章发到您的邮箱，<a href="/subscribe.html">点此订阅</a>。<br />',
            'Copyright &copy; 2006-2024 文苑 All Rights Reserved &nbsp; 示ICP备00000001号',
            '</div>',
            '</div>',
            '<script type="text/javascript">', WY_JS.strip('\n'), '</script>',
            '</body>',
            '</html>', '']
    return '\n'.join(out)


# ===========================================================================
# 科普园 Kepuyuan: HTML 4.01, GB2312 bytes declared in a meta http-equiv tag,
# lists as <dl>, paragraphs indented with &nbsp;.
# ===========================================================================

KP_NAV = [('首页', '/'), ('天文', '/astronomy/'), ('物理', '/physics/'), ('生物', '/biology/'), ('地球', '/earth/'),
          ('生活', '/life/'), ('图说', '/photo/'), ('问答', '/wenda/'), ('视频', '/video/'), ('投稿', '/tougao/')]
KP_TAGS = ['天文观测', '动物', '植物', '气象', '地震', '光学', '电学', '生活常识', '实验', '昆虫']

KP_CSS = """
body{margin:0;background:#e9f2e3;font:12px/1.6 "宋体",SimSun,Arial;color:#333}
a{color:#1a5c00;text-decoration:none}a:hover{color:#f60;text-decoration:underline}
.kp-top{width:980px;margin:0 auto;height:90px;background:#fff}
.kp-logo{float:left;padding:10px}
.kp-slogan{float:right;padding:34px 20px 0 0;color:#5a8f3c;font-size:16px;font-weight:bold}
.kp-menu{width:980px;margin:0 auto;height:36px;line-height:36px;background:#5a8f3c;text-align:center}
.kp-menu a{color:#fff;font-size:14px;font-weight:bold;padding:0 12px}
.kp-body{width:980px;margin:0 auto;background:#fff;overflow:hidden;padding:10px 0}
.kp-side{float:left;width:240px;padding-left:10px}
.kp-main{float:right;width:710px;padding-right:10px}
.kp-box{border:1px solid #cfe0c3;margin:0 0 10px 0}
.kp-box dt{background:#eef6e8;height:28px;line-height:28px;padding-left:10px;font-weight:bold;color:#1a5c00;font-size:13px}
.kp-box dd{margin:0;padding:3px 10px;line-height:20px;border-bottom:1px dashed #e2ecda}
.kp-path{color:#666;border-bottom:1px solid #cfe0c3;padding-bottom:4px}
.kp-art h1{text-align:center;font-size:20px;color:#1a5c00;margin:16px 0 8px}
.kp-info{text-align:center;color:#888;background:#f6faf3;padding:4px}
.kp-txt{font-size:14px;line-height:28px;padding:10px 6px}
.kp-txt p{margin:0 0 10px}
.kp-txt b{color:#c30}
.kp-pic{text-align:center;margin:12px 0}.kp-pic p{margin:4px 0 0;color:#666}
.kp-prevnext{border-top:1px dashed #ccc;padding-top:6px;color:#666}
.kp-list dd span{float:right;color:#999}
.kp-list dd p{margin:0;color:#777}
.ad{text-align:center;margin:8px 0;border:1px solid #eee}
.ad .ad-tip{display:block;text-align:left;color:#bbb;font-size:11px}
.kp-foot{width:980px;margin:0 auto;text-align:center;color:#666;padding:12px 0;border-top:2px solid #5a8f3c;background:#fff;line-height:22px}
"""

KP_JS = """
function fontZoom(size) {
  document.getElementById('fontzoom').style.fontSize = size + 'px';
}
function copyUrl() {
  var txt = document.title + ' ' + location.href;
  if (window.clipboardData) { window.clipboardData.setData('Text', txt); alert('网址已复制，可以粘贴给好友。'); }
  else { prompt('请按Ctrl+C复制下面的网址：', txt); }
}
$(function () {
  $('.kp-box dd:odd').css('background', '#fafdf8');
  $('.kp-menu a').hover(function () { $(this).css('color', '#ff0'); }, function () { $(this).css('color', '#fff'); });
  $.get('/plus/click.php', { id: $('#artid').val(), t: new Date().getTime() }, function (n) { $('#clicknum').text(n); });
});
"""


def render_kepu(c, p):
    site, d = 'kepu', p.doc
    main = []
    if p.kind == 'hub':
        title = '%s--科普园' % p.title if p.path != 'index.html' else '科普园--让科学走进生活'
        desc = '科普园：天文、物理、生物、地球与生活中的科学知识，适合青少年阅读。'
        main.append('<div class="kp-path">您现在的位置：<a href="/">科普园</a> &gt; %s</div>' % esc(p.title))
        main.append('<h1 class="kp-ltitle">%s</h1>' % esc(p.title))
        for g in p.hub['groups']:
            main.append('<dl class="kp-box kp-list"><dt>%s</dt>' % esc(g['heading']))
            for q in g['pages']:
                teaser = '<p>%s</p>' % esc(q.doc.summary) if g['teaser'] else ''
                main.append('<dd><span>%d-%d-%d</span><a href="%s">%s</a>%s</dd>'
                            % (q.date.year, q.date.month, q.date.day, href(p, q), esc(anchor(g, q)), teaser))
            main.append('</dl>')
    else:
        sec = section_label(site, p.section)
        title = '%s--%s--科普园' % (d.title, sec)
        desc = d.summary
        source = SITES[p.origin_site]['name'] if p.origin_site else '科普园'
        arts = [q for q in c.articles(site) if q.doc]
        i = [q.doc.id for q in arts].index(d.id)
        prev_p, next_p = arts[(i + 1) % len(arts)], arts[i - 1]
        main += ['<div class="kp-path">您现在的位置：<a href="/">科普园</a> &gt; <a href="/%s/">%s</a> &gt; 正文</div>' % (p.section, esc(sec)),
                 '<div class="kp-art">',
                 '<input type="hidden" id="artid" value="%s">' % d.id,
                 '<h1>%s</h1>' % esc(d.title),
                 '<div class="kp-info">作者：%s　　来源：%s　　发布日期：%d-%d-%d　　点击数：<span id="clicknum">%d</span>　　【字体：<a href="javascript:fontZoom(16)">大</a> <a href="javascript:fontZoom(14)">中</a> <a href="javascript:fontZoom(12)">小</a>】</div>'
                 % (esc(d.author), source, d.date.year, d.date.month, d.date.day, num(d.id, 100, 5000)),
                 '<div class="kp-txt" id="fontzoom">']
        if p.kind == 'image':
            main.append('<p>&nbsp;&nbsp;&nbsp;&nbsp;%s</p>' % esc(d.intro))
            for _, file_, alt, cap in images(d):
                main.append('<div class="kp-pic"><img src="/UploadFiles/%s/%s" alt="%s" width="500" height="375" border="0"><p>%s</p></div>'
                            % (d.date.strftime('%Y%m'), file_, attr(alt), esc(cap)))
        else:
            main += body_html(d, p='<p>&nbsp;&nbsp;&nbsp;&nbsp;{}</p>', h='<h3>{}</h3>', em='b')
        main += ['</div>',
                 '<div class="kp-prevnext">上一篇：<a href="%s">%s</a><br>下一篇：<a href="%s">%s</a></div>'
                 % (href(p, prev_p), esc(prev_p.title), href(p, next_p), esc(next_p.title)),
                 '<div class="kp-tools">【<a href="javascript:copyUrl()">推荐给朋友</a>】【<a href="javascript:window.print()">打印</a>】【<a href="javascript:window.close()">关闭</a>】</div>',
                 '</div>']
    side = ['<dl class="kp-box"><dt>热门文章</dt>']
    side += ['<dd><a href="%s">%s</a></dd>' % (href(p, q), esc(q.title)) for q in c.popular(site)]
    side += ['</dl>',
             '<div class="ad"><span class="ad-tip">广告</span><a href="http://www.xingchen-tianwen.example/" target="_blank"><img src="/ad/telescope_230x180.gif" alt="星辰天文望远镜" width="230" height="180" border="0"></a><br>星辰望远镜：学生入门款，暑期特价。</div>',
             '<dl class="kp-box"><dt>文章存档</dt>']
    side += ['<dd><a href="/archive/%d%02d.shtml">%d年%d月</a></dd>' % (y, m, y, m) for y, m in c.archive_months(site)]
    side += ['</dl>', '<dl class="kp-box"><dt>标签</dt><dd>']
    side += ['<a href="/tag/%d.shtml">%s</a> ' % (i + 1, t) for i, t in enumerate(KP_TAGS)]
    side += ['</dd></dl>']
    out = ['<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">',
           '<html>',
           '<head>',
           '<meta http-equiv="Content-Type" content="text/html; charset=gb2312">',
           '<title>%s</title>' % esc(title),
           '<meta name="keywords" content="科普,科学知识,%s">' % attr(section_label(site, p.section) if d else '青少年'),
           '<meta name="description" content="%s">' % attr(desc),
           '<link rel="stylesheet" type="text/css" href="/skin/kp2009.css">',
           '<style type="text/css">', KP_CSS.strip('\n'), '</style>',
           '<script type="text/javascript" src="/js/jquery-1.4.2.min.js"></script>',
           '<script type="text/javascript">', KP_JS.strip('\n'), '</script>',
           '</head>',
           '<body>',
           '<div class="kp-top"><div class="kp-logo"><a href="/"><img src="/images/kepu_logo.jpg" alt="科普园" width="240" height="70" border="0"></a></div><div class="kp-slogan">让科学走进生活</div></div>',
           '<div class="kp-menu">' + ' | '.join('<a href="%s">%s</a>' % (u, n) for n, u in KP_NAV) + '</div>',
           '<div class="kp-body">',
           '<div class="kp-side">']
    out += side
    out += ['</div>', '<div class="kp-main">'] + main + ['</div>', '</div>',
            '<div class="kp-foot">',
            '<a href="/about.shtml">关于本站</a> | <a href="/contact.shtml">联系我们</a> | <a href="/copyright.shtml">版权声明</a> | <a href="/privacy.shtml">隐私说明</a> | <a href="/sitemap.html">网站地图</a><br>',
            '科普园电子月刊每月一期，介绍新文章和有趣的小实验，欢迎<a href="/subscribe.shtml">免费订阅</a>。<br>',
            '版权所有 &copy; 2008-2024 科普园 &nbsp; 示ICP备00000002号',
            '</div>',
            '</body>',
            '</html>', '']
    return '\n'.join(out)


# ===========================================================================
# Output
# ===========================================================================

RENDER = {
    'chenbao': render_chenbao, 'crumbandcrust': render_crumbandcrust, 'healthcircle': render_healthcircle,
    'kepu': render_kepu, 'lumenframe': render_lumenframe, 'marlow': render_marlow,
    'techwire': render_techwire, 'wanderlane': render_wanderlane, 'wenyuan': render_wenyuan,
}


def write_text(path, text, encoding='utf-8'):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(text.encode(encoding))


def qrels_for(c, key):
    """The page of (site, id) and every replica of it."""
    page = c.by_key[key]
    return [page] + [p for p in c.pages if p.replica_of is page]


def main():
    c = Corpus()
    if os.path.isdir(PAGES):
        shutil.rmtree(PAGES)
    data = {}
    for p in c.pages:
        if p.replica_kind != 'exact':
            # strict encoding: every character must exist in the site's charset
            data[p.relpath] = RENDER[p.site](c, p).encode(p.encoding)
    for p in c.pages:
        blob = data[p.replica_of.relpath] if p.replica_kind == 'exact' else data[p.relpath]
        out = os.path.join(PAGES, p.relpath)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, 'wb') as f:
            f.write(blob)

    write_text(os.path.join(HERE, 'pages', 'urls.tsv'), ''.join('%s\t%s\n' % (p.relpath, p.url) for p in c.pages))
    rows = ['url\tsite\ttype\tlang\tencoding\treplica_of\treplica_kind\ttitle']
    for p in c.pages:
        rows.append('\t'.join([p.url, p.site, p.kind, p.lang, p.encoding,
                               p.replica_of.url if p.replica_of else '', p.replica_kind, p.title]))
    write_text(os.path.join(HERE, 'expected.tsv'), '\n'.join(rows) + '\n')

    write_text(os.path.join(REPO, 'queries', 'sample.tsv'), ''.join('%s\t%s\n' % (q[0], q[1]) for q in QUERIES))
    qrels = []
    for qid, _, target, related in QUERIES:
        qrels += ['%s 0 %s 2' % (qid, p.url) for p in qrels_for(c, target)]
        for key in related:
            qrels += ['%s 0 %s 1' % (qid, p.url) for p in qrels_for(c, key)]
    write_text(os.path.join(REPO, 'eval', 'sample.qrels'), '\n'.join(qrels) + '\n')

    counts = {}
    for p in c.pages:
        counts.setdefault(p.site, {}).setdefault(p.kind, 0)
        counts[p.site][p.kind] += 1
    total = sum(len(b) for b in data.values()) + sum(
        len(data[p.replica_of.relpath]) for p in c.pages if p.replica_kind == 'exact')
    for site in sorted(counts):
        print('%-14s %3d pages  %s' % (site, sum(counts[site].values()),
                                       ', '.join('%s %d' % kv for kv in sorted(counts[site].items()))))
    print('total: %d pages, %d bytes, %d queries' % (len(c.pages), total, len(QUERIES)))


if __name__ == '__main__':
    main()
