"""Every visitor-facing word of the travel tool: summary templates in nine languages."""

from __future__ import annotations

from rag.lexicon.languages import UNSPACED_LANGUAGES

# Summary templates. {origin}, {boarding}, {station}: names as written in the data; {lines}: line
# names ("RER B + RER C"); {duration}, {walk}: formatted by ``minutes``; {distance}: kilometres.
PHRASES: dict[str, dict[str, str]] = {
    "en": {
        "invalid": "Tell me where you are starting from: a station, an airport, a landmark or a town.",
        "not_found": "I could not find “{origin}”. Which station, airport or landmark are you near?",
        "public_transport": "By public transport from {boarding}: {lines} to {station}, then {walk} on foot "
        "to the Palace; about {duration} in all.",
        "change": " (change at {stops})",
        "no_public_transport": "No direct public-transport route is known from {origin}: "
        "see iledefrance-mobilites.fr.",
        "car": "by car about {duration}, paid parking on the Place d'Armes",
        "bike": "by bike about {duration}",
        "walk": "on foot about {duration}",
        "walk_too_far": "Walking is not realistic from {origin} ({distance} km).",
        "bike_too_far": "Cycling is not realistic from {origin} ({distance} km).",
        "estimated": "Road times are estimates from the distance.",
        "routed": "Road times come from a route planner.",
    },
    "fr": {
        "invalid": "Dites-moi d'où vous partez : une gare, un aéroport, un monument ou une ville.",
        "not_found": "Je ne trouve pas « {origin} ». Près de quelle gare, de quel aéroport ou de quel "
        "monument êtes-vous ?",
        "public_transport": "En transports en commun depuis {boarding} : {lines} jusqu'à {station}, puis "
        "{walk} à pied jusqu'au Château ; environ {duration} au total.",
        "change": " (changement à {stops})",
        "no_public_transport": "Aucun trajet direct en transports en commun n'est connu depuis {origin} : "
        "voir iledefrance-mobilites.fr.",
        "car": "en voiture environ {duration}, parking payant place d'Armes",
        "bike": "à vélo environ {duration}",
        "walk": "à pied environ {duration}",
        "walk_too_far": "Venir à pied depuis {origin} n'est pas réaliste ({distance} km).",
        "bike_too_far": "Venir à vélo depuis {origin} n'est pas réaliste ({distance} km).",
        "estimated": "Les temps par la route sont estimés d'après la distance.",
        "routed": "Les temps par la route viennent d'un calculateur d'itinéraire.",
    },
    "es": {
        "invalid": "Dígame desde dónde sale: una estación, un aeropuerto, un monumento o una ciudad.",
        "not_found": "No encuentro «{origin}». ¿Cerca de qué estación, aeropuerto o monumento está?",
        "public_transport": "En transporte público desde {boarding}: {lines} hasta {station}, y luego {walk} "
        "a pie hasta el Palacio; unos {duration} en total.",
        "change": " (transbordo en {stops})",
        "no_public_transport": "No se conoce una ruta directa en transporte público desde {origin}: "
        "consulte iledefrance-mobilites.fr.",
        "car": "en coche unos {duration}, aparcamiento de pago en la Place d'Armes",
        "bike": "en bicicleta unos {duration}",
        "walk": "a pie unos {duration}",
        "walk_too_far": "Ir a pie desde {origin} no es realista ({distance} km).",
        "bike_too_far": "Ir en bicicleta desde {origin} no es realista ({distance} km).",
        "estimated": "Los tiempos por carretera son estimaciones a partir de la distancia.",
        "routed": "Los tiempos por carretera proceden de un planificador de rutas.",
    },
    "de": {
        "invalid": "Sagen Sie mir, wo Sie losfahren: ein Bahnhof, ein Flughafen, eine Sehenswürdigkeit "
        "oder ein Ort.",
        "not_found": "Ich finde „{origin}“ nicht. In der Nähe welches Bahnhofs, Flughafens oder welcher "
        "Sehenswürdigkeit sind Sie?",
        "public_transport": "Mit öffentlichen Verkehrsmitteln ab {boarding}: {lines} bis {station}, dann "
        "{walk} zu Fuß zum Schloss; insgesamt etwa {duration}.",
        "change": " (Umstieg in {stops})",
        "no_public_transport": "Von {origin} ist keine direkte Verbindung mit öffentlichen Verkehrsmitteln "
        "bekannt: siehe iledefrance-mobilites.fr.",
        "car": "mit dem Auto etwa {duration}, kostenpflichtiger Parkplatz an der Place d'Armes",
        "bike": "mit dem Fahrrad etwa {duration}",
        "walk": "zu Fuß etwa {duration}",
        "walk_too_far": "Zu Fuß ist es von {origin} aus nicht realistisch ({distance} km).",
        "bike_too_far": "Mit dem Fahrrad ist es von {origin} aus nicht realistisch ({distance} km).",
        "estimated": "Die Zeiten auf der Straße sind aus der Entfernung geschätzt.",
        "routed": "Die Zeiten auf der Straße stammen von einem Routenplaner.",
    },
    "it": {
        "invalid": "Mi dica da dove parte: una stazione, un aeroporto, un monumento o una città.",
        "not_found": "Non trovo «{origin}». Vicino a quale stazione, aeroporto o monumento si trova?",
        "public_transport": "Con i mezzi pubblici da {boarding}: {lines} fino a {station}, poi {walk} "
        "a piedi fino alla Reggia; circa {duration} in tutto.",
        "change": " (cambio a {stops})",
        "no_public_transport": "Non è noto un percorso diretto con i mezzi pubblici da {origin}: "
        "consulti iledefrance-mobilites.fr.",
        "car": "in auto circa {duration}, parcheggio a pagamento in Place d'Armes",
        "bike": "in bicicletta circa {duration}",
        "walk": "a piedi circa {duration}",
        "walk_too_far": "Andare a piedi da {origin} non è realistico ({distance} km).",
        "bike_too_far": "Andare in bicicletta da {origin} non è realistico ({distance} km).",
        "estimated": "I tempi su strada sono stime basate sulla distanza.",
        "routed": "I tempi su strada provengono da un calcolatore di percorsi.",
    },
    "pt": {
        "invalid": "Diga-me de onde parte: uma estação, um aeroporto, um monumento ou uma cidade.",
        "not_found": "Não encontro «{origin}». Perto de que estação, aeroporto ou monumento está?",
        "public_transport": "De transportes públicos a partir de {boarding}: {lines} até {station}, depois "
        "{walk} a pé até ao Palácio; cerca de {duration} no total.",
        "change": " (mudança em {stops})",
        "no_public_transport": "Não se conhece um trajeto direto em transportes públicos a partir de "
        "{origin}: consulte iledefrance-mobilites.fr.",
        "car": "de carro cerca de {duration}, estacionamento pago na Place d'Armes",
        "bike": "de bicicleta cerca de {duration}",
        "walk": "a pé cerca de {duration}",
        "walk_too_far": "Ir a pé a partir de {origin} não é realista ({distance} km).",
        "bike_too_far": "Ir de bicicleta a partir de {origin} não é realista ({distance} km).",
        "estimated": "Os tempos por estrada são estimativas a partir da distância.",
        "routed": "Os tempos por estrada vêm de um planeador de rotas.",
    },
    "nl": {
        "invalid": "Vertel me waar u vertrekt: een station, een luchthaven, een bezienswaardigheid of een "
        "plaats.",
        "not_found": "Ik kan „{origin}” niet vinden. Bij welk station, welke luchthaven of welke "
        "bezienswaardigheid bent u?",
        "public_transport": "Met het openbaar vervoer vanaf {boarding}: {lines} naar {station}, daarna "
        "{walk} lopen naar het Paleis; in totaal ongeveer {duration}.",
        "change": " (overstappen in {stops})",
        "no_public_transport": "Er is geen directe verbinding met het openbaar vervoer bekend vanaf "
        "{origin}: zie iledefrance-mobilites.fr.",
        "car": "met de auto ongeveer {duration}, betaald parkeren op de Place d'Armes",
        "bike": "met de fiets ongeveer {duration}",
        "walk": "te voet ongeveer {duration}",
        "walk_too_far": "Lopen vanaf {origin} is niet realistisch ({distance} km).",
        "bike_too_far": "Fietsen vanaf {origin} is niet realistisch ({distance} km).",
        "estimated": "De reistijden over de weg zijn schattingen op basis van de afstand.",
        "routed": "De reistijden over de weg komen van een routeplanner.",
    },
    "ja": {
        "invalid": "出発地を教えてください（駅、空港、名所、または町の名前）。",
        "not_found": "「{origin}」が見つかりませんでした。近くの駅、空港、または名所を教えてください。",
        "public_transport": "公共交通機関：{boarding}から{lines}で{station}へ、そこから宮殿まで徒歩{walk}。"
        "合計約{duration}。",
        "change": "（{stops}で乗り換え）",
        "no_public_transport": "{origin}からの公共交通機関の直通ルートは分かりません。"
        "iledefrance-mobilites.frでご確認ください。",
        "car": "車で約{duration}（宮殿前のPlace d'Armesに有料駐車場）",
        "bike": "自転車で約{duration}",
        "walk": "徒歩で約{duration}",
        "walk_too_far": "{origin}から徒歩で行くのは現実的ではありません（{distance} km）。",
        "bike_too_far": "{origin}から自転車で行くのは現実的ではありません（{distance} km）。",
        "estimated": "道路での所要時間は距離からの推定です。",
        "routed": "道路での所要時間はルート検索サービスによるものです。",
    },
    "zh": {
        "invalid": "请告诉我您从哪里出发：车站、机场、景点或城镇。",
        "not_found": "找不到“{origin}”。您在哪个车站、机场或景点附近？",
        "public_transport": "公共交通：从{boarding}乘{lines}到{station}，"
        "再步行{walk}到宫殿；全程约{duration}。",
        "change": "（在{stops}换乘）",
        "no_public_transport": "没有从{origin}出发的已知公共交通直达路线，请查询 iledefrance-mobilites.fr。",
        "car": "开车约{duration}，宫殿前 Place d'Armes 有收费停车场",
        "bike": "骑自行车约{duration}",
        "walk": "步行约{duration}",
        "walk_too_far": "从{origin}步行前往不现实（{distance} 公里）。",
        "bike_too_far": "从{origin}骑自行车前往不现实（{distance} 公里）。",
        "estimated": "公路时间是根据距离估算的。",
        "routed": "公路时间来自路线规划服务。",
    },
}

# How numbers and lists read in each language: minutes, hours and minutes, list separator, end mark.
_UNITS: dict[str, tuple[str, str]] = {
    "de": ("{m} min", "{h} Std. {m} min"),
    "ja": ("{m}分", "{h}時間{m}分"),
    "zh": ("{m}分钟", "{h}小时{m}分钟"),
}
_DEFAULT_UNITS = ("{m} min", "{h} h {m:02d}")
_DECIMAL_COMMA = {"fr", "es", "de", "it", "pt", "nl"}


def phrase(language: str, key: str, **values: object) -> str:
    """One template of ``language`` (English when missing), filled in."""
    return PHRASES.get(language, PHRASES["en"]).get(key, PHRASES["en"][key]).format(**values)


def minutes(language: str, value: int | tuple[int, int]) -> str:
    """'45 min', '1 h 20', '30–40 min' or '1 h 15 – 1 h 40', in the units of ``language``."""
    short, long = _UNITS.get(language, _DEFAULT_UNITS)
    low, high = (value, value) if isinstance(value, int) else value
    if high < 60:
        return short.format(m=str(low) if low == high else f"{low}–{high}")

    def one(total: int) -> str:
        return short.format(m=str(total)) if total < 60 else long.format(h=total // 60, m=total % 60)

    return one(low) if low == high else f"{one(low)} – {one(high)}"


def kilometres(language: str, value: float) -> str:
    """'14.1' or '14,1' as the language writes decimals."""
    text = f"{value:.1f}"
    return text.replace(".", ",") if language in _DECIMAL_COMMA else text


def sentence(language: str, fragments: list[str]) -> str:
    """Fragments joined into one sentence: 'By car about 45 min; by bike about 1 h 15.'"""
    if language in UNSPACED_LANGUAGES:
        return "；".join(fragments) + "。" if language == "zh" else "、".join(fragments) + "。"
    text = (" ; " if language == "fr" else "; ").join(fragments)
    return text[:1].upper() + text[1:] + "."
