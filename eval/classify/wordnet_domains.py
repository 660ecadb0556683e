#!/usr/bin/env python3
"""Writes eval/classify/wordnet/<code>/*.txt: WordNet 3.0 glosses grouped by Table 1 category.

Why: the default model must know the vocabulary of fields its hand-written texts and nine
sample sites never use (a computing paper's "compiler", "recursion"; a clinical abstract's
"renal", "serum"). WordNet marks synsets with a domain ("computer science", "medicine",
"law", ...; pointer `;c`); a synset below a domain member in the hypernym tree belongs to it
too. The domains are mapped onto Table 1 only where the mapping is clean (DOMAINS below; a
domain that fits two categories, such as "electronics" or "philosophy", is left out), and
place names (lexicographer file noun.location) are Region. WordNet's licence allows
redistribution with its notice (wordnet/LICENSE).

Usage (repository root, needs Debian's wordnet-base): eval/classify/wordnet_domains.py
[WORDNET_DIR] [--max-texts N] [--glosses-per-text N] (defaults 80 and 12). Deterministic: the same WordNet gives the same files.
"""

import os
import shutil
import sys
from collections import defaultdict

# Table 1 code -> WordNet domain names (the lemma of the domain synset, first word).
DOMAINS = {
    "01": ["art", "fine_arts", "music", "photography", "painting", "sculpture", "poetry", "literature",
           "dancing", "architecture", "handicraft", "prosody", "performing_arts", "dramaturgy", "drama"],
    "02": ["journalism", "television", "broadcasting", "publishing", "radio", "press", "print_media"],
    "03": ["commerce", "commercial_enterprise", "finance", "stock_exchange", "accounting", "tax", "banking",
           "business", "insurance", "marketing", "industry", "manufacturing", "trade"],
    "04": ["sport", "baseball", "football", "American_football", "golf", "basketball", "tennis", "soccer",
           "card_game", "chess", "game", "bridge", "boxing", "ice_hockey", "cricket", "softball", "rugby",
           "badminton", "squash", "fencing", "water_sport", "skiing", "gambling", "film", "cinema", "circus"],
    "05": ["computer_science", "computer", "computing", "internet", "programming", "software",
           "information_science", "artificial_intelligence"],
    "06": ["education", "teaching", "pedagogy", "school", "university", "academia"],
    "08": ["chemistry", "biology", "physics", "botany", "mathematics", "statistics", "genetics", "geology",
           "astronomy", "zoology", "meteorology", "geometry", "arithmetic", "biochemistry", "optics",
           "cosmology", "ecology", "physical_chemistry", "metallurgy", "mineralogy", "crystallography",
           "nuclear_physics", "thermodynamics", "entomology", "ornithology", "paleontology", "algebra",
           "oceanography", "microbiology", "molecular_biology", "mechanics"],
    "09": ["law", "military", "government", "politics", "criminal_law", "contract", "diplomacy",
           "jurisprudence", "civil_law", "international_law", "legislation", "police", "war"],
    "10": ["linguistics", "grammar", "phonetics", "psychology", "psychoanalysis", "anthropology",
           "archeology", "sociology", "economics", "phonology", "semantics", "morphology", "syntax",
           "social_science", "demography", "history"],
    "11": ["medicine", "anatomy", "physiology", "pathology", "psychiatry", "surgery", "dentistry", "drug",
           "obstetrics", "immunology", "pharmacology", "pharmacy", "nursing", "ophthalmology", "neurology",
           "radiology", "gynecology", "pediatrics", "dermatology", "oncology", "cardiology", "epidemiology",
           "virology", "bacteriology", "orthopedics", "endocrinology", "hematology", "urology",
           "veterinary_medicine", "medical_science", "health_care", "pharmaceutical"],
    "12": ["religion", "Roman_Catholic", "Judaism", "Christianity", "Islam", "Hinduism", "Buddhism",
           "theology", "church_service", "mythology", "folklore", "cooking", "Greek_mythology",
           "Roman_mythology", "Norse_mythology", "classical_mythology", "Old_Testament", "New_Testament",
           "Bible", "fashion", "etiquette", "holiday", "wedding"],
}
REGION = "07"
NOUN_LOCATION = 15  # lexicographer file number of noun.location
GLOSSES_PER_TEXT = 12
MAX_TEXTS_PER_CODE = 80


def read_synsets(wordnet):
    """(offset, pos) -> (words, gloss, lexfile, hypernyms, domain pointers)."""
    synsets = {}
    for pos in ("noun", "verb", "adj", "adv"):
        with open(os.path.join(wordnet, "data." + pos), encoding="latin-1") as data:
            for line in data:
                if line.startswith("  "):
                    continue
                head, _, gloss = line.partition(" | ")
                fields = head.split()
                key = (fields[0], "a" if fields[2] == "s" else fields[2])
                lexfile = int(fields[1])
                count = int(fields[3], 16)
                words = [fields[4 + 2 * i].replace("_", " ") for i in range(count)]
                i = 4 + 2 * count
                pointers = int(fields[i])
                i += 1
                hypernyms, domains = [], []
                for _ in range(pointers):
                    symbol, offset, ppos = fields[i], fields[i + 1], fields[i + 2]
                    target = (offset, "a" if ppos == "s" else ppos)
                    i += 4
                    if symbol in ("@", "@i"):
                        hypernyms.append(target)
                    elif symbol == ";c":
                        domains.append(target)
                synsets[key] = (words, gloss.strip(), lexfile, hypernyms, domains)
    return synsets


def domain_codes(synsets):
    """Each synset's Table 1 codes: its own domains' and its hypernyms' (inherited)."""
    code_of_domain = {}
    for key, (words, *_rest) in synsets.items():
        lemma = words[0].replace(" ", "_")
        for code, names in DOMAINS.items():
            if lemma in names and key[1] == "n":
                code_of_domain[key] = code
    memo = {}

    def codes(key, depth=0):
        if key in memo:
            return memo[key]
        memo[key] = set()  # guards against cycles
        _words, _gloss, lexfile, hypernyms, domains = synsets[key]
        found = {code_of_domain[d] for d in domains if d in code_of_domain}
        if depth < 30:
            for hypernym in hypernyms:
                if hypernym in synsets:
                    found |= codes(hypernym, depth + 1)
        if key[1] == "n" and lexfile == NOUN_LOCATION:
            found.add(REGION)
        memo[key] = found
        return found

    return {key: codes(key) for key in synsets}


def main():
    args = sys.argv[1:]
    max_texts = MAX_TEXTS_PER_CODE
    if "--max-texts" in args:
        i = args.index("--max-texts")
        max_texts = int(args[i + 1])
        del args[i:i + 2]
    per_text = GLOSSES_PER_TEXT
    if "--glosses-per-text" in args:
        i = args.index("--glosses-per-text")
        per_text = int(args[i + 1])
        del args[i:i + 2]
    wordnet = args[0] if args else "/usr/share/wordnet"
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "wordnet")
    synsets = read_synsets(wordnet)
    by_code = defaultdict(list)
    for key, found in sorted(domain_codes(synsets).items()):
        if len(found) != 1:
            continue  # no category, or two: not a clean example
        words, gloss, *_ = synsets[key]
        by_code[found.pop()].append(f"{', '.join(words)}: {gloss}")
    for code in sorted(by_code):
        folder = os.path.join(root, code)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        glosses = by_code[code]
        texts = [glosses[i:i + per_text] for i in range(0, len(glosses), per_text)]
        # Evenly spaced texts when a category has more than the cap: every part of the
        # offset order (which follows WordNet's lexicographer files) stays represented.
        if len(texts) > max_texts:
            step = len(texts) / max_texts
            texts = [texts[int(i * step)] for i in range(max_texts)]
        for n, text in enumerate(texts):
            with open(os.path.join(folder, f"wordnet-{n:03}.txt"), "w", encoding="utf-8") as out:
                out.write("\n".join(text) + "\n")
        print(f"{code}: {len(glosses)} glosses, {len(texts)} texts")


if __name__ == "__main__":
    main()
