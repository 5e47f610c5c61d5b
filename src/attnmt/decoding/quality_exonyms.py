"""The names German, French and Spanish write their own way, for the ``name`` rule (attnmt.decoding.quality_names):
a land, a city, a river or a sea ("Vienna" as "Wien", "Greece" as "Griechenland", "the Rhine" as "der Rhein"), a
people and its language ("Dutch" as "niederländisch", "the Germans" as "die Deutschen", "English" as "anglais")
and a feast ("Christmas" as "Weihnachten", "Noël", "Navidad"), which a good translation writes so and the rule
would read as a name left out.

EXONYMS holds, for a translation's language (a primary subtag), each such English word (in lower case, a
possessive's "'s" left off) and the stems a translation writes it with: the translation keeps the name where it
holds one of them, in a word of its own or in a compound ("Süditalien", "Schweizerkäse"); the rule spells both
sides alike (``spelled``: "Köln" is read as "koln").  A word is here only where the rule's own reading,
its first three letters, misses its translation ("Danish" as "dänisch" is read without one), so the list stays
short: lands and peoples of Europe and round the Mediterranean, cities and rivers of European travel and news, and
the feasts of the year.  A stem has at least four letters: a shorter one ("Ire", "Rom") is part of
other words ("Direktor", "Strom") and would keep a name a translation left out.
"""

from __future__ import annotations

_GERMAN = (
    "germany german germans = deutsch",
    "french frenchman frenchmen frenchwoman = franz",
    "greece greek greeks = griech",
    "austria austrian austrians = österreich",
    "switzerland swiss = schweiz",
    "hungary hungarian hungarians = ungar",
    "netherlands dutch dutchman = niederl holländ",
    "sweden swedish swede swedes = schwed",
    "denmark = dänemark",
    "ireland = irland",
    "iceland icelandic icelander icelanders = island",
    "czech czechs czechia = tschech",
    "romania romanian romanians = rumän",
    "welsh = walis",
    "latvia latvian latvians = lett",
    "macedonia macedonian macedonians = mazedon",
    "flemish = fläm",
    "filipino filipinos = philippin",
    "burmese = birman",
    "yiddish = jiddisch",
    "kazakhstan kazakh kazakhs = kasach",
    "uzbekistan uzbek uzbeks = usbek",
    "kyrgyzstan kyrgyz = kirgis",
    "tajikistan tajik tajiks = tadschik",
    "azerbaijan azerbaijani = aserbaidschan",
    "chechnya chechen chechens = tschetschen",
    "yemen yemeni = jemen",
    "qatar qatari = katar",
    "zimbabwe = simbabwe",
    "zambia = sambia",
    "greenland greenlandic = grönland",
    "ottoman ottomans = osman",
    "viking vikings = wikinger",
    "egypt egyptian egyptians = ägypt",
    "cyprus cypriot cypriots = zypern zypriot",
    "lebanon lebanese = liban",
    "morocco moroccan moroccans = marokk",
    "ethiopia ethiopian ethiopians = äthiop",
    "jew jews jewish = jude jüdin jüdisch",
    "vienna viennese = wien",
    "tuscany tuscan = toskan",
    "sicily sicilian sicilians = sizili",
    "brittany = bretagne",
    "alsace alsatian = elsass",
    "lorraine = lothring",
    "silesia silesian = schlesi",
    "moravia moravian = mähr",
    "swabia swabian swabians = schwab",
    "styria styrian = steierm steirisch",
    "tyrol tyrolean = tirol",
    "brunswick = braunschweig",
    "bavaria bavarian bavarians = bayer",
    "saxony saxon saxons = sachs",
    "naples = neapel",
    "milan = mailand",
    "lucerne = luzern",
    "beijing = peking",
    "rhine rhineland = rhein",
    "danube = donau",
    "thames = themse",
    "vistula = weichsel",
    "baltic = ostsee",
    "mediterranean = mittelmeer",
    "pacific = pazifi",
    "christmas = weihnacht",
    "easter = oster",
    "epiphany = dreikönig",
    "candlemas = lichtmess",
    "thanksgiving = erntedank",
    "pentecost whitsun = pfingst",
    "lent = fastenzeit",
    "passover = pessach",
    "hanukkah = chanukka",
)

_FRENCH = (
    "germany german germans = allema",
    "french frenchman frenchmen = franç",
    "switzerland swiss = suisse",
    "austria austrian austrians = autrich",
    "hungary hungarian hungarians = hongr",
    "netherlands dutch = néerland holland pays-bas",
    "spain spanish spaniard spaniards = espagn",
    "england english = angl",
    "britain brittany = bretagne",
    "scotland scottish scot scots = écoss",
    "wales welsh = gall",
    "sweden swedish swede swedes = suéd",
    "denmark = danemark",
    "iceland icelandic = island",
    "czech czechs czechia = tchèq",
    "latvia latvian = letton",
    "belarus belarusian = biélorus",
    "flemish = flamand",
    "cyprus cypriot cypriots = chypr",
    "lebanon lebanese = liban",
    "morocco moroccan moroccans = maroc",
    "jew jews jewish = juif juive",
    "warsaw = varsovie",
    "beijing = pékin",
    "tuscany tuscan = toscan",
    "burgundy = bourgogn",
    "thames = tamise",
    "christmas = noël",
    "easter passover = pâque",
    "whitsun = pentecôte",
    "lent = carême",
)

_SPANISH = (
    "germany german germans = aleman",
    "french frenchman frenchmen = franc",
    "switzerland swiss = suiz",
    "netherlands dutch = neerland holand",
    "spain spanish spaniard spaniards = españ",
    "england english = ingl",
    "britain brittany = bretañ",
    "greek greeks = grieg",
    "scotland scottish scot scots = escoc",
    "wales welsh = gales",
    "sweden swedish swede swedes = suec",
    "denmark = dinamarc",
    "iceland icelandic = island",
    "czech czechs czechia = chec",
    "latvia latvian = leton",
    "belarus belarusian = bielorrus",
    "flemish = flamenc",
    "scandinavia scandinavian = escandinav",
    "cyprus cypriot cypriots = chipr",
    "lebanon lebanese = liban",
    "morocco moroccan moroccans = marru marroq",
    "jew jews jewish = judí",
    "saxony saxon = sajon",
    "warsaw = varsovia",
    "beijing = pekín",
    "geneva = ginebr",
    "athens = aten",
    "tuscany tuscan = toscan",
    "burgundy = borgoñ",
    "thames = támesis",
    "christmas = navidad",
    "easter = pascua",
    "whitsun = pentecost",
    "lent = cuaresma",
)


def _table(lines: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """Each English word of ``lines`` ("english words = stems") and its stems."""
    table = {}
    for line in lines:
        words, stems = line.split(" = ")
        table.update(dict.fromkeys(words.split(), tuple(stems.split())))
    return table


EXONYMS: dict[str, dict[str, tuple[str, ...]]] = {"de": _table(_GERMAN), "fr": _table(_FRENCH),
                                                  "es": _table(_SPANISH)}
