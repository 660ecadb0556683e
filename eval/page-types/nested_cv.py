#!/usr/bin/env python3
"""The nested cross-validation of `indexer eval page-types`, replayed on the TSV its `--features FILE`
writes, to compare feature sets on the same folds outside the program.

Same protocol as src/eval/page_types.rs: labels (listing, collection = hub), shares read as
ln(0.01 + share), logistic regression on standardised features by full-batch gradient descent
(L2 0.01, 3000 steps, rate 0.5, intercept not penalised), the threshold of 0.05 ... 0.95 with the
best mean accuracy over the sets by cross-validation inside the other folds (ties: the highest),
a page §4.1 typed hub with central_hub_share >= 0.9 stays hub, an empty page stays empty. On the
shipped 22 features it gives the program's figures (27 listings + collections hub, 3 articles,
4 other pages; fold thresholds 0.30 0.30 0.35 0.25 0.25).

Besides the program's folds (column `fold`), it draws the site folds again with four other
hashes (md5 of "seed:site", seeds 1-4; site = the URL's host from the set's meta.tsv, the page
itself where there is no URL): "four other partitions".

Usage: nested_cv.py FEATURES.tsv CLEAN_TRAIN_DIR SPEC...
  SPEC: `base` (the shipped 22 features), `base+name` (one more column of the TSV), `base-name`.
Training data only: the TSV is of the cleaning training sets.
"""
import csv
import hashlib
import sys
from urllib.parse import urlparse

import numpy as np

BASE = """central_hub_share page_link_density central_link_density content_share content_link_density
content_text_terms longest_block repeated_entries content_links teaser_share entry_share linked_headings
linked_heading_share entry_text_share entry_terms links_per_block longest_block_share rules_hub
entry_longest_block entry_anchor_share entry_image_share body_share""".split()
NOT_SHARES = {"content_text_terms", "longest_block", "repeated_entries", "content_links", "linked_headings",
              "entry_terms", "links_per_block", "rules_hub", "entry_longest_block"}
HUB = {"listing", "collection"}
FOLDS = 5


def fit(X, y, l2=0.01, epochs=3000, rate=0.5):
    mean = X.mean(0)
    sd = np.sqrt(((X - mean) ** 2).mean(0))
    sd[sd <= 1e-6] = 1.0
    Z = (X - mean) / sd
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(epochs):
        e = 1 / (1 + np.exp(-(b + Z @ w))) - y
        w -= rate * (l2 * w + Z.T @ e / len(y))
        b -= rate * e.mean()
    return mean, sd, w, b


def probability(model, X):
    mean, sd, w, b = model
    return 1 / (1 + np.exp(-(b + ((X - mean) / sd) @ w)))


def nested_cv(rows, names, shares, fold):
    X = np.array([[float(r[n]) for n in names] for r in rows])
    for j, n in enumerate(names):
        if n in shares:
            X[:, j] = np.log(0.01 + X[:, j])
    y = np.array([1.0 if r["label"] in HUB else 0.0 for r in rows])
    sets = np.array([r["set"] for r in rows])
    empty = np.array([r["rules"] == "empty" for r in rows])
    certain = np.array([r["rules"] == "hub" and float(r["central_hub_share"]) >= 0.9 for r in rows])

    def typed_hub(p, t):
        return ~empty & (certain | (p >= t))

    def out_of_fold(scope):
        p = np.zeros(len(rows))
        for f in range(FOLDS):
            train, test = scope & (fold != f), scope & (fold == f)
            p[test] = probability(fit(X[train], y[train]), X[test])
        return p

    def choose(scope, p):
        best = (-1.0, 0.5)
        for t in [k * 0.05 for k in range(1, 20)]:
            h = typed_hub(p, t)
            acc = np.mean([np.mean(h[scope & (sets == s)] == (y[scope & (sets == s)] == 1)) for s in sorted(set(sets))])
            if acc >= best[0] - 1e-12:
                best = (acc, t)
        return best[1]

    hub = np.zeros(len(rows), bool)
    thresholds = []
    for f in range(FOLDS):
        train, test = fold != f, fold == f
        t = choose(train, out_of_fold(train))
        thresholds.append(t)
        hub[test] = typed_hub(probability(fit(X[train], y[train]), X), t)[test]
    labels = np.array([r["label"] for r in rows])
    is_hub_label = np.isin(labels, list(HUB))
    accuracy = {s: float(np.mean(hub[sets == s] == (y[sets == s] == 1))) for s in sorted(set(sets))}
    return dict(accuracy=accuracy, hubs=int(hub[is_hub_label].sum()), articles=int(hub[labels == "article"].sum()),
                others=int(hub[~is_hub_label & (labels != "article")].sum()), thresholds=thresholds)


def main():
    tsv, clean_train, specs = sys.argv[1], sys.argv[2], sys.argv[3:]
    rows = list(csv.DictReader(open(tsv), delimiter="\t"))
    urls = {}
    for s in sorted({r["set"] for r in rows}):
        for m in csv.DictReader(open(f"{clean_train}/{s}/meta.tsv"), delimiter="\t"):
            urls[(s, m["id"])] = m["url"]

    def site(r):
        url = urls.get((r["set"], r["stem"]), "")
        host = urlparse(url).hostname if url.startswith("http") else None
        return host.lower() if host else f"{r['set']}/{r['stem']}"

    partitions = [np.array([int(r["fold"]) for r in rows])]
    for seed in range(1, 5):
        partitions.append(np.array(
            [int(hashlib.md5(f"{seed}:{site(r)}".encode()).hexdigest(), 16) % FOLDS for r in rows]))
    columns = list(rows[0].keys())
    shares = {c for c in columns[6:] if c not in NOT_SHARES and not c.endswith("_links") and c != "sig_entries"}
    for spec in specs:
        names = list(BASE)
        for token in spec.replace("-", " -").replace("+", " +").split()[1:]:
            names.append(token[1:]) if token[0] == "+" else names.remove(token[1:])
        results = [nested_cv(rows, names, shares, fold) for fold in partitions]
        shipped = results[0]
        acc = " / ".join(f"{shipped['accuracy'][s]:.3f}" for s in sorted(shipped["accuracy"]))
        others = [(r["hubs"], r["articles"], r["others"]) for r in results[1:]]
        total = tuple(sum(x) for x in zip(*others))
        means = " ".join("%.4f" % np.mean(list(r["accuracy"].values())) for r in results)
        print(f"{spec}: shipped folds accuracy {acc} ({' / '.join(sorted(shipped['accuracy']))}), "
              f"hub: listings+collections {shipped['hubs']}, articles {shipped['articles']}, other {shipped['others']}, "
              f"thresholds {[round(t, 2) for t in shipped['thresholds']]}; four other partitions "
              f"{' '.join('/'.join(map(str, o)) for o in others)} (sum {'/'.join(map(str, total))}); "
              f"mean accuracy per partition {means}",
              flush=True)


if __name__ == "__main__":
    main()
