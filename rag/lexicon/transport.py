"""Transport modes: the travel tool's four, and the words that name them in the nine languages.

The travel tool's modes are canonical. A visitor names a kind of transport ("the RER", "a taxi");
``NAMED_KINDS`` files each kind under the mode that serves it, and the kind's name is itself a word
the tool reads as that mode. ``MODE_WORDS`` is wider: the tool also reads what a model may write
("public transport", "transit"), words too loose to show that a message asks for a route.
"""

from __future__ import annotations

from typing import Literal

TravelMode = Literal["public_transport", "car", "bike", "walk"]

# Words a visitor (or the model) may use for a mode, in the nine languages; matched after
# ``gazetteer.normalise`` (no case, no accents), as whole words except in Japanese and Chinese.
MODE_WORDS: dict[TravelMode, tuple[str, ...]] = {
    "public_transport": (
        "public transport", "public transportation", "transit", "train", "trains", "rer", "metro", "subway",
        "underground", "tube", "bus", "buses", "coach", "tram", "transilien", "sncf",
        "transports en commun", "transport en commun", "transports", "transport", "autocar",
        "transporte publico", "tren", "autobus", "oeffentliche verkehrsmittel", "offentliche verkehrsmittel",
        "opnv", "oepnv", "zug", "bahn", "s bahn", "u bahn", "trasporto pubblico", "trasporti pubblici",
        "mezzi pubblici", "treno", "metropolitana", "transportes publicos", "comboio", "trem", "onibus",
        "openbaar vervoer", "ov", "trein",
        "公共交通機関", "公共交通", "電車", "列車", "地下鉄", "バス", "公共交通工具", "公交", "地铁", "地鐵",
        "火车", "火車", "巴士",
    ),
    "car": (
        "car", "by car", "drive", "driving", "taxi", "cab", "uber", "voiture", "en voiture", "vtc", "coche",
        "en coche", "auto", "mit dem auto", "wagen", "macchina", "in macchina", "automobile", "carro",
        "de carro", "met de auto", "車", "自動車", "タクシー", "汽车", "汽車", "开车", "開車", "自驾",
        "出租车",
    ),
    "bike": (
        "bike", "bicycle", "cycling", "cycle", "by bike", "velo", "a velo", "bicyclette", "bicicleta", "bici",
        "en bici", "fahrrad", "rad", "mit dem fahrrad", "bicicletta", "fiets", "met de fiets", "自転車",
        "自行车", "自行車", "单车", "骑车",
    ),
    "walk": (
        "walk", "walking", "on foot", "foot", "a pied", "pied", "marche", "a pie", "caminando", "andando",
        "zu fuss", "fuss", "laufen", "gehen", "a piedi", "a pe", "te voet", "lopen", "lopend", "徒歩",
        "歩いて", "歩き", "步行", "走路",
    ),
}  # fmt: skip

# The kinds of transport a visitor's message names, by the mode that serves them, with the words
# naming each kind (the offline model's cues: compared folded, at word boundaries). Searched in
# this order: the first kind named is the one asked for.
NAMED_KINDS: dict[TravelMode, dict[str, tuple[str, ...]]] = {
    "public_transport": {
        "train": (
            "train", "trains", "rer", "rer c", "transilien", "tren", "zug", "s-bahn", "treno", "trem",
            "trein", "電車", "列車", "火车", "火車",
        ),
        "metro": (
            "metro", "métro", "subway", "underground", "u-bahn", "metropolitana", "地下鉄", "地铁", "地鐵",
        ),
        "bus": ("bus", "buses", "autobus", "autocar", "coach", "ônibus", "バス", "巴士", "公交", "公交车"),
    },
    "car": {
        "car": (
            "car", "by car", "drive", "driving", "voiture", "coche", "auto", "mit dem auto", "macchina",
            "carro", "車", "开车", "開車", "汽车", "汽車", "自驾",
        ),
        "taxi": ("taxi", "taxis", "uber", "vtc", "cab", "タクシー", "出租车", "出租車", "打车"),
    },
    "bike": {
        "bike": ("bike", "bicycle", "vélo", "bici", "bicicleta", "fahrrad", "fiets", "自転車", "自行车"),
    },
    "walk": {
        "walk": (
            "walk", "walking", "on foot", "à pied", "a pie", "zu fuß", "a piedi", "a pé", "te voet",
            "歩いて", "步行",
        ),
    },
}  # fmt: skip


def kind_words() -> dict[str, tuple[str, ...]]:
    """The words of every named kind ("train", "taxi"...), kinds in search order."""
    return {kind: words for kinds in NAMED_KINDS.values() for kind, words in kinds.items()}
