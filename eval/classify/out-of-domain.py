#!/usr/bin/env python3
"""The built-in model on the shared public sets, as pages it never saw: AG News and THUCNews
titles (../shared/data/classify, evaluation only) with their classes mapped onto Table 1 where
the mapping is clean (AG Sports 04, Business 03; THUCNews finance, realty, stocks 03,
education 06, politics 09, sports, game, entertainment 04; AG World and Sci/Tech, THUCNews
science and society fit two categories and are left out). 100 texts per class, evenly
spaced; each is classified by `indexer classify text`. Prints per class the codes right with
min_confidence 0, and right / empty / wrong with MIN_CONFIDENCE.
Usage (repository root): eval/classify/out-of-domain.py [INDEXER] [MIN_CONFIDENCE] [DATA]
"""
import csv, subprocess, collections, sys
BIN = sys.argv[1] if len(sys.argv) > 1 else 'target/release/indexer'
THRESHOLD = float(sys.argv[2]) if len(sys.argv) > 2 else 0.55
DATA = sys.argv[3] if len(sys.argv) > 3 else '../shared/data/classify'
def classify(text):
    out=subprocess.run([BIN,'classify','text','-'],input=text,capture_output=True,text=True).stdout.split('\n')[0].split('\t')
    return out[0], float(out[1])
def run(name, rows, mapping, per_class=100):
    by=collections.defaultdict(list)
    for text,label in rows:
        if label in mapping: by[label].append(text)
    stats=collections.Counter(); conf=collections.Counter()
    for label,texts in sorted(by.items()):
        step=len(texts)/per_class
        for i in range(per_class):
            code,c=classify(texts[int(i*step)])
            want=mapping[label]
            stats[(label,'right0')]+= code==want
            if c>=THRESHOLD:
                stats[(label,'right')]+= code==want; stats[(label,'wrong')]+= code!=want
            else: stats[(label,'empty')]+=1
            conf[(label,code)]+=1
    tot=collections.Counter()
    for label in sorted(by):
        r0,r,w,e=(stats[(label,k)] for k in ('right0','right','wrong','empty'))
        for k,v in zip(('right0','right','wrong','empty'),(r0,r,w,e)): tot[k]+=v
        top=sorted(((v,k[1]) for k,v in conf.items() if k[0]==label),reverse=True)[:3]
        print(f"{name} {label}->{mapping[label]}: min_conf 0: {r0}/{per_class}; {THRESHOLD}: right {r} empty {e} wrong {w}; top {top}")
    n=per_class*len(by)
    print(f"{name} all {n}: min_conf 0: {tot['right0']/n:.1%}; {THRESHOLD}: right {tot['right']/n:.1%} empty {tot['empty']/n:.1%} wrong {tot['wrong']/n:.1%}")
ag=[(r['title']+'. '+r['description'].replace('\\',' '), r['label']) for r in csv.DictReader(open(DATA+'/ag_news-test/test.csv'))]
run('ag', ag, {'2':'04','3':'03'})
names=open(DATA+'/thucnews-titles-10class/class.txt').read().split()
th=[(l.split('\t')[0], names[int(l.split('\t')[1])]) for l in open(DATA+'/thucnews-titles-10class/test.txt') if '\t' in l]
run('thucnews', th, {'finance':'03','realty':'03','stocks':'03','education':'06','politics':'09','sports':'04','game':'04','entertainment':'04'})
