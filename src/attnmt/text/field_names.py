"""The names of open fields that a line opens with in capitals before a colon, as a speaker's name is written: a
listing's, a recipe's, a job advert's, a medical note's, a form's or a program's (``BENEFITS: Free parking.``,
``INGREDIENTS: Flour, eggs, milk.``, ``SIDE EFFECTS: Nausea.``, ``DRESS CODE: Smart casual.``).  A reader wants such a
name translated with its value (``VORTEILE: ...``), where a speaker's name is kept as written
(attnmt.text.speaker_labels); read as a speaker's, "BENEFITS: Free parking and Wi-Fi." kept its English "BENEFITS:".

The words are common nouns no script gives a speaker: not a role (``HOST``, ``GUIDE``, ``PATIENT``, ``SECURITY``,
``CONTROL``, ``CLASS``, ``CREW`` speak in scripts and transcripts), nor a word that is also a usual given name or
surname (``HOPE``, ``PAGE``, ``COOK``, ``LINK``, ``POWERS``).  A label on no list names a field too where its value
reads as one (``valued``): a person's name after a role (``TRANSLATOR: Ann Goldstein``, a film's or a book's
credits), a list after a plural (``ACCESSORIES: Case, charger, cable.``), a time or a price (``OPENING TIMES: Mon-Fri
9am-5pm``), none with a word of speech in it.

The lists (``FIELDS``, ``CREDITS``, ``SCHEDULES``, ``SPOKEN``) and the plural's "-S" are English.  A source in another
language meets none of the lists, so its labels are judged by the shapes that need no language: on no list, a label in
capitals before speech, a person's name, a time or a number is kept as a speaker's name is (never translated: the
costlier mistake is a name translated), before words in lower case it is a field's, and one in title case is a field's
before a credit, a time or a quantity (attnmt.text.speaker_labels.is_field); before a list, a label in "-S" is read as a
plural, as French and Spanish plurals are ("INGRÉDIENTS:"), German's "ZUTATEN:" kept, but for the usual names in "-S"
(``NAMES_IN_S``: "JAMES:", "HANS:", "JACQUES:"); one on no list ("BARTHOLOMEWS:") is taken for a field's where no other
line says it speaks and it stands between no two turns of names in capitals, as in a script (attnmt.text.speaker_labels.
script_plurals: "MILES:", "EMRYS:")."""

from __future__ import annotations

import re

from attnmt.text.count_values import counted, counted_measure, counted_things
from attnmt.text.measure_values import TIME_OR_PRICE, measure_alone, named_measure

# Each in the singular, or as the field is written where it has no singular; a plural (``FEATURES``, ``HOURS``) is
# read through its singular (``field_word``).
FIELDS = frozenset({
    # a product's listing
    "FEATURE", "SPECIFICATION", "SPEC", "DIMENSION", "SIZE", "WEIGHT", "COLOUR", "COLOR", "MATERIAL", "FABRIC",
    "FINISH", "BRAND", "MODEL", "WARRANTY", "GUARANTEE", "INCLUDES", "INCLUDED", "CONTENT", "CONTENTS", "QUANTITY",
    "AVAILABILITY", "STOCK", "DELIVERY", "SHIPPING", "RETURN", "PAYMENT", "DISCOUNT", "OFFER", "WATTAGE", "BATTERY",
    "DISPLAY", "SCREEN", "STORAGE", "MEMORY", "COMPATIBILITY", "CARE", "ORIGIN", "SKU", "EAN", "ISBN", "FORMAT",
    "PAGES", "EDITION", "PUBLISHER", "GENRE", "LENGTH", "WIDTH", "DEPTH", "VOLUME", "PACK", "PACKAGING",
    # a recipe
    "INGREDIENT", "METHOD", "DIRECTION", "PREPARATION", "PREP", "COOKING", "SERVES", "SERVING", "YIELD", "MAKES",
    "NUTRITION", "CALORIE", "ALLERGEN", "DIFFICULTY", "EQUIPMENT", "TOPPING", "FILLING", "SAUCE", "GARNISH",
    "DRESSING", "MARINADE", "DOUGH", "GLAZE", "FROSTING", "BAKE", "CHILL",
    "TIME",  # last of several words ("PREP TIME", "COOK TIME", "RUNNING TIME"): "COOK" alone is a person's title
    # a medical note or a medicine's leaflet
    "SYMPTOM", "DIAGNOSIS", "TREATMENT", "DOSAGE", "DOSE", "EFFECT", "MEDICATION", "ALLERGY", "HISTORY",
    "PROGNOSIS", "COMPLAINT", "VITALS", "PULSE", "TEMPERATURE", "PRESSURE", "PLAN", "ASSESSMENT", "USAGE",
    "INDICATION", "PRECAUTION", "CONTRAINDICATION",
    # a job advert or a CV
    "BENEFIT", "PERK", "SKILL", "EXPERIENCE", "EDUCATION", "LANGUAGE", "SALARY", "PAY", "WAGE", "HOUR", "SCHEDULE",
    "SHIFT", "START", "CONTRACT", "ROLE", "POSITION", "DEPARTMENT", "DUTY", "DUTIES", "TASK", "QUALIFICATION",
    "HOBBY", "HOBBIES", "INTEREST", "ACHIEVEMENT", "CERTIFICATION", "AWARD", "PROFILE", "EMPLOYER", "APPLY",
    # a place, a trip, an event
    "AMENITY", "AMENITIES", "FACILITY", "FACILITIES", "HIGHLIGHT", "ITINERARY", "ACCOMMODATION", "TRANSPORT",
    "DEPARTURE", "ARRIVAL", "DESTINATION", "CHECK IN", "CHECK OUT", "PARKING", "ADMISSION", "ENTRY", "TICKET",
    "CODE", "ACCESS", "ACCESSIBILITY", "CAPACITY", "RENT", "DEPOSIT", "BEDROOM", "BATHROOM", "AREA", "FLOOR",
    "HEATING", "PETS", "SMOKING", "UTILITY", "UTILITIES", "VIEW", "DATES", "PROGRAMME", "PROGRAM", "LINEUP", "FEE",
    "RATE", "FORECAST", "WIND", "HUMIDITY", "ATTENDANCE", "WI FI",
    # a label on food or goods, a garment
    "FLAVOUR", "FLAVOR", "SCENT", "TEXTURE", "TASTE", "AROMA", "VINTAGE", "GRAPE", "ALCOHOL", "ABV", "SHELF LIFE",
    "BEST BEFORE", "USE BY", "MADE IN", "SUITABLE FOR", "SUGGESTION", "STORE", "OPTION", "UPGRADE", "MODE", "SETTING",
    "STYLE", "PATTERN", "FIT", "SLEEVE", "TYPE", "COST",
    # a film, a book, a record, a course, an outing
    "RUNTIME", "RUNNING TIME", "RATED", "SUBTITLE", "CAST", "STARRING", "SOUNDTRACK", "TRACK", "TRACKLIST",
    "PLOT", "SYNOPSIS", "TAGLINE", "EPISODE", "CHAPTER", "SERIES", "SOUND", "SFX", "FX", "THEME", "MENU", "DRINK",
    "SEASON", "LEVEL", "MOOD", "FREQUENCY", "INTENSITY", "TERRAIN", "DISTANCE", "ELEVATION", "ROUTE", "MEETING POINT",
    "PREREQUISITE", "SYLLABUS", "MODULE", "GRADE", "SEMESTER", "TERM", "RULE", "MEAL", "EXTRA", "BREAKFAST", "BRUNCH",
    "LUNCH", "DINNER", "SUPPER",
    # a menu's courses and sections ("STARTERS: Soup, salad, bread.", "MAINS:", "SIDES:"), which after a script's
    # last turn read as one more speaker's name in "-S" (speaker_labels.script_plurals)
    "STARTER", "MAIN", "DESSERT", "SIDE", "APPETIZER", "APPETISER", "ENTREE", "ENTRÉE", "COURSE", "DISH", "SALAD",
    "SOUP", "SANDWICH", "PIZZA", "PASTA", "BURGER", "WINE", "BEER", "COCKTAIL", "MOCKTAIL", "SNACK", "SWEET",
    "SPECIAL", "BEVERAGE", "JUICE", "SMOOTHIE", "PUDDING", "CHEESE", "NIBBLE", "PLATTER", "BREAD", "CAKE", "PASTRY",
    "TART", "PIE", "FRUIT", "VEGETABLE", "MEAT", "SEAFOOD", "GRAIN", "SPICE", "TEA", "COFFEE", "SPIRIT", "NOODLE",
    # a form, an invoice, a review
    "AGE", "GENDER", "SEX", "NATIONALITY", "OCCUPATION", "DOB", "BIRTHDAY", "HEIGHT", "SIGNATURE", "ACCOUNT",
    "INVOICE", "ORDER", "AMOUNT", "BALANCE", "TAX", "VAT", "SUBTOTAL", "QTY", "ZIP", "POSTCODE", "CITY", "COUNTRY",
    "REGION", "WEBSITE", "FAX", "MOBILE", "TEL", "CONTACT", "COMMENT", "FEEDBACK", "RATING", "REVIEW", "VERDICT",
    "SCORE", "PROS", "CONS", "TIMELINE", "MILESTONE", "CAPTION", "CREDIT", "PHOTO", "IMAGE", "VIDEO",
    "DOWNLOAD",
    # a sequence's numbered parts, before a quantity ("STEP 1: 2 eggs", "DAY 3: 12 km"), where a speaker's role with
    # a number ("MAN 2:", "JUROR 8:") says one
    "STEP", "DAY", "WEEK", "MONTH", "YEAR", "ROUND", "PHASE", "PART", "STAGE", "LAP", "LEG", "HOLE",
    # a program's notes or a bug report
    "VERSION", "RELEASE", "PLATFORM", "LICENSE", "LICENCE", "DEPENDENCY", "DEPENDENCIES", "INSTALL", "INSTALLATION",
    "SETUP", "CONFIGURATION", "CHANGE", "FIX", "FIXES", "ADDED", "REMOVED", "CHANGED", "DEPRECATED", "WORKAROUND",
    "EXPECTED", "ACTUAL", "ENVIRONMENT", "OS", "BROWSER", "SEVERITY", "COMPONENT", "ASSIGNEE", "LABEL",
})


# The words a label of several words may end with that say what its value is of, a date, a place, a person
# ("AVAILABLE FROM: March", "VALID UNTIL: June", "SHIPS TO: Europe", "SUITABLE FOR: Vegans"): no person's name ends
# with one.  Read as a speaker's, "AVAILABLE FROM:" kept its English words.
PREPOSITIONS = frozenset({"FROM", "UNTIL", "TILL", "TO", "SINCE", "FOR", "IN", "ON", "AT", "BY", "WITH", "OF", "PER",
                          "VIA", "AFTER", "BEFORE"})
# The nouns a script's cast names a person by, the last word of a role of several ("OLD MAN", "DELIVERY MAN", "YOUNG
# WOMAN", "POLICE OFFICER"): before a number, such a label is a speaker's who says it ("OLD MAN: 5 dollars."), where
# a field's of several words names no person ("PREP TIME: 15 min").
PEOPLE = frozenset({
    "MAN", "MEN", "WOMAN", "WOMEN", "BOY", "BOYS", "GIRL", "GIRLS", "LADY", "LADIES", "GUY", "GUYS", "KID", "KIDS",
    "CHILD", "PERSON", "GENTLEMAN", "FELLOW", "STRANGER", "FRIEND", "NEIGHBOR", "NEIGHBOUR", "MOTHER", "FATHER", "MOM",
    "MUM", "DAD", "SISTER", "BROTHER", "WIFE", "HUSBAND", "SON", "DAUGHTER", "AUNT", "UNCLE", "GRANDMA", "GRANDPA",
    "OFFICER", "DRIVER", "GUARD", "SOLDIER", "NURSE", "DOCTOR", "TEACHER", "WAITER", "WAITRESS", "CLERK", "CASHIER",
    "VENDOR", "SELLER", "BUYER", "CUSTOMER", "PASSENGER", "AGENT", "DETECTIVE", "SERGEANT", "CAPTAIN", "COP", "PILOT",
    "JUDGE", "LAWYER", "WITNESS", "BARTENDER", "COACH", "WORKER", "MANAGER", "BOSS", "KING", "QUEEN", "PRINCE",
    "PRINCESS", "POSTMAN", "FIREMAN", "POLICEMAN", "SALESMAN", "DOORMAN", "FISHERMAN", "CAMERAMAN", "SPOKESMAN",
    "VOICE", "STUDENT", "PATIENT", "VISITOR", "TOURIST", "FARMER", "SHOPKEEPER", "RECEPTIONIST", "ASSISTANT",
    # a kitchen's, a hotel's, a ship's, a court's, a church's and a town's people, and a family's
    "CHEF", "COOK", "BAKER", "BUTCHER", "BUTLER", "MAID", "HOSTESS", "BARMAN", "BARMAID", "BARISTA", "SOMMELIER",
    "PORTER", "CONCIERGE", "BELLBOY", "JANITOR", "GARDENER", "PLUMBER", "CARPENTER", "BUILDER", "MECHANIC",
    "ENGINEER", "SURGEON", "PROFESSOR", "LIBRARIAN", "OPERATOR", "DISPATCHER", "ATTENDANT", "STEWARD", "STEWARDESS",
    "SAILOR", "MATE", "ADMIRAL", "GENERAL", "COLONEL", "MAJOR", "LIEUTENANT", "CORPORAL", "PRIVATE", "SHERIFF",
    "DEPUTY", "MARSHAL", "ATTORNEY", "PROSECUTOR", "CLIENT", "MAYOR", "MINISTER", "PRESIDENT", "SENATOR", "PRIEST",
    "VICAR", "NUN", "MONK", "BISHOP", "USHER", "RANGER", "TRAINER", "INSTRUCTOR", "TUTOR", "PRINCIPAL", "PUPIL",
    "ANNOUNCER", "PRESENTER", "INTERVIEWER", "BABY", "TEEN", "TEENAGER", "GRANNY", "GRANDMOTHER", "GRANDFATHER",
    "COUSIN", "NEPHEW", "NIECE", "BRIDE", "GROOM", "PARTNER", "COLLEAGUE", "ROOMMATE", "FLATMATE", "LANDLORD",
    "LANDLADY", "TENANT", "OWNER", "DUKE", "DUCHESS", "LORD", "KNIGHT", "SERVANT", "MESSENGER", "HERALD"})
# The endings of a noun that names a person by what they do, past those on ``PEOPLE``, in words of 7 letters or more
# ("PIANIST", "DENTIST", "JOURNALIST", "TECHNICIAN", "FOREMAN", "CHAIRWOMAN"): not a list's "-LIST" ("PLAYLIST",
# "CHECKLIST"; a person's is "-ALIST"), nor "TWIST", "WRIST", nor a word in "-MAN" that names no one (``NO_ONE``:
# "GERMAN", a language's field; "-MEN" is left out: "SPECIMEN", "REGIMEN" are a lab's and a medical note's fields).
PERSON_ENDING = re.compile(r"(?:ALIST|[^L]IST|ICIAN|MAN)\Z")
NO_ONE = frozenset({"GERMAN", "OTTOMAN", "TALISMAN", "DOBERMAN"})
OF_ROLE = frozenset({"OF", "DE", "DU", "DES", "DEL", "DI", "VON", "VAN"})  # "CHEF DE PARTIE", "MAID OF HONOUR"


def names_field(words: list[str]) -> bool:
    """Whether a label's ``words``, in capitals, name a field: whole ("CHECK IN", "WI FI"), or its last word
    (``field_word``: "SIDE EFFECTS", "KEY BENEFITS", "DRESS CODE"), or, of several, their last is a preposition
    (``PREPOSITIONS``: "AVAILABLE FROM")."""
    return bool(words) and (" ".join(words) in FIELDS or field_word(words[-1])
                            or (len(words) >= 2 and words[-1] in PREPOSITIONS))


def names_person(words: list[str]) -> bool:
    """Whether a label's ``words``, in capitals, end with a noun that names a person (``PEOPLE``: "OLD MAN",
    "DELIVERY MAN", "POLICE OFFICER", "HEAD CHEF"; or by its ending: "LEAD GUITARIST", "LAB TECHNICIAN", "FOREMAN":
    ``PERSON_ENDING``), or hold one before what it is of (``OF_ROLE``: "CHEF DE PARTIE", "CAPTAIN OF THE GUARD"), or
    open with one as a title before a name (``titled_name``: "SERGEANT MILLER", "AUNT MAY")."""
    nouns = [word for word, after in zip(words, [*words[1:], ""], strict=True) if after in OF_ROLE] + words[-1:]
    return titled_name(words) or any(
        noun in PEOPLE or (len(noun) >= 7 and noun not in NO_ONE and PERSON_ENDING.search(noun) is not None)
        for noun in nouns)


def titled_name(words: list[str]) -> bool:
    """Whether a label's ``words``, in capitals, are a person's noun as a title (``PEOPLE``) and a name after it, a
    word of three letters or more that names no field (``names_field``): "SERGEANT MILLER", "NURSE KELLY", "AUNT MAY",
    "CAPTAIN REYES"; not "PATIENT WEIGHT", "DRIVER AGE", "OWNER ID".  Read as a field's, "SERGEANT MILLER: 2 men."
    had its name translated alone."""
    return (len(words) == 2 and words[0] in PEOPLE and len(words[1]) >= 3 and not names_field(words[1:])
            and words[1] not in NAMED_FIELDS)


def field_word(word: str) -> bool:
    """Whether ``word``, in capitals, names a field (``FIELDS``), itself or its singular: "BENEFITS", "AMENITIES",
    "SIZE"; not "CHARLES", "HASTINGS"."""
    singulars = [word, word[:-1] if word.endswith("S") else "", word[:-3] + "Y" if word.endswith("IES") else ""]
    return any(each in FIELDS for each in singulars if each)


# The roles a film's, a book's, a record's or an event's credits name before a person's name, in the singular
# ("TRANSLATOR: Ann Goldstein", "EXECUTIVE PRODUCER:", "COVER DESIGN: Chip Kidd"); not a role a script has speak
# ("NARRATOR", "HOST": attnmt.text.speaker_labels.ROLES), nor one that is also a usual name ("MASON", "TAYLOR").
CREDITS = frozenset({"AUTHOR", "WRITER", "SCREENPLAY", "STORY", "TRANSLATOR", "TRANSLATION", "EDITOR", "EDITING",
                     "ILLUSTRATOR", "ILLUSTRATION", "PHOTOGRAPHER", "PHOTOGRAPHY", "CINEMATOGRAPHER",
                     "CINEMATOGRAPHY", "DIRECTOR", "PRODUCER", "PRODUCTION", "COMPOSER", "MUSIC", "LYRICS",
                     "LYRICIST", "ARRANGER", "CONDUCTOR", "PAINTER", "ARTIST", "SCULPTOR", "DESIGNER", "DESIGN",
                     "ARCHITECT", "CHOREOGRAPHER", "CHOREOGRAPHY", "COSTUME", "CASTING", "CURATOR", "ANIMATOR",
                     "ANIMATION", "COLORIST", "COLOURIST", "LETTERER", "COVER", "ORGANISER", "ORGANIZER", "SPONSOR",
                     "CHAIR", "BOARD", "PANEL", "JURY", "FOUNDER", "COORDINATOR", "SUPERVISOR", "REVIEWER"})
# The fields of a form, a listing or a programme that hold persons' names, past the credits' roles ("FULL NAME: John
# Smith", "CAST: Tom Hanks, Meg Ryan", "ASSIGNEE: Jo Park"); not a role a script has speak ("GUEST", "SPEAKER").
NAMED_FIELDS = frozenset({"NAME", "CAST", "STARRING", "FEATURING", "PANELIST", "CONTACT", "ASSIGNEE", "SIGNED"})
# Given names and surnames that end in an "S" no plural's, of the languages scripts, subtitles and transcripts are
# most often written in, which ``plural`` would read as plurals: before a list ("JAMES: Coffee, tea, whatever.",
# "HANS: Brot, Wein, Käse."), a time or a person's name, such a name was read as a field's and translated alone
# (the demo model's "FUSSGÄNGER:", "ES:").  Those in "-AS", "-IS", "-US" and "-SS" are no plurals already.
NAMES_IN_S = frozenset({
    # English given names and surnames
    "JAMES", "CHARLES", "AGNES", "FRANCES", "GILES", "JULES", "MOSES", "GLADYS",
    "JONES", "WILLIAMS", "EVANS", "ROBERTS", "EDWARDS", "HUGHES", "DAVIES", "HOLMES", "ROGERS", "PHILLIPS", "ADAMS",
    "PETERS", "STEVENS", "STEPHENS", "COLLINS", "JENKINS", "PERKINS", "HAWKINS", "WATKINS", "HOPKINS", "SIMMONS",
    "PARSONS", "MYERS", "SANDERS", "OWENS", "WALTERS", "MATTHEWS", "RICHARDS", "ANDREWS", "REYNOLDS", "DANIELS",
    "NICHOLS", "HAYES", "BARNES", "GRIMES", "HAYNES", "RHODES", "ROWLANDS", "JEFFERIES", "HODGES", "BRIGGS",
    # French, German, Dutch and Scandinavian
    "JACQUES", "GEORGES", "YVES", "GILLES", "AGNÈS", "INÈS", "HANS", "JENS", "NIELS", "LARS", "ANDERS",
    "HANNES", "JOHANNES", "KEES", "FRANS", "ANDRIES", "MARTENS", "PIETERS", "JANSSENS", "MERTENS", "CLAES",
    # Spanish, Portuguese, Greek
    "CARLOS", "MARCOS", "ANDRÉS", "DOLORES", "MERCEDES", "LOURDES", "INÉS", "REYES", "RAMOS", "SANTOS", "CAMPOS",
    "NUNES", "GOMES", "LOPES", "ALVES", "MENDES", "FERNANDES", "RODRIGUES", "MARQUES", "PIRES", "NIKOS", "GIORGOS",
    "DIMITRIOS", "ACHILLES", "SOCRATES", "HERMES", "PERICLES", "HERCULES",
})
# English's plurals without an "-S" that a form or a listing counts ("CHILDREN: Two.", "PEOPLE: 4"); not "MEN" nor
# "WOMEN", a script's chorus.
IRREGULAR = frozenset({"CHILDREN", "PEOPLE", "MICE", "GEESE", "TEETH", "FEET", "SHEEP", "CATTLE"})
# The first words of a schedule's field before a time or a price ("LAST ENTRY: 16:30", "NEXT TRAIN: 9:15").
SCHEDULES = frozenset({"FIRST", "LAST", "NEXT", "OPENING", "CLOSING", "DAILY", "WEEKLY", "EARLY", "LATE"})
# Words that speech has and a field's value hardly ever: English pronouns, answers, greetings and a question's first
# words ("JAMES: Fine, thanks.", "TOM: Hi Anna", "ANNA: Meet me at 5pm.").
SPOKEN = frozenset({"I", "ME", "MY", "YOU", "YOUR", "WE", "US", "OUR", "HE", "HIM", "HIS", "SHE", "HER", "IT", "ITS",
                    "THEY", "THEM", "THEIR", "THIS", "THAT", "YES", "YEAH", "NO", "NOPE", "OH", "AH", "WELL", "OKAY",
                    "OK", "HELLO", "HI", "HEY", "BYE", "GOODBYE", "PLEASE", "THANKS", "THANK", "SORRY", "WHAT", "WHY",
                    "HOW", "WHERE", "WHO", "WHEN", "LET", "LETS", "DON", "DO", "IS", "ARE", "WAS", "DEAR",
                    "SIR", "MADAM", "MISS", "COME", "LOOK", "LISTEN", "WAIT", "STOP"})
# The words of a machine's, a job's or a service's state that no one says of themselves, and those a person says too
# ("ready!", "done!", "down!", a call or an order), each alone before "!" (``status``).
MACHINE_STATES = frozenset({"OFFLINE", "ONLINE", "FAILED", "MISSING", "COMPLETE",
                            "COMPLETED", "DELAYED", "CANCELLED", "CANCELED", "EXPIRED", "LOCKED", "UNLOCKED",
                            "INACTIVE", "ENABLED", "DISABLED", "RUNNING", "STOPPED", "CRASHED", "OVERLOADED",
                            "UNAVAILABLE", "AVAILABLE", "UNREACHABLE", "DISCONNECTED", "CONNECTED", "PAUSED"})
SHARED_STATES = frozenset({"LOW", "HIGH", "DOWN", "UP", "DONE", "READY", "BUSY", "OFF", "ON", "OPEN", "CLOSED",
                           "LATE", "ACTIVE", "OK", "FINISHED", "WAITING", "FULL", "EMPTY", "BROKEN"})
# The machines, programs' parts and places a status is reported of ("SERVER: down!", "BUILD: done!", "KITCHEN:
# closed!"), none a name.
SYSTEMS = frozenset({"DISK", "DRIVE", "SERVER", "BUILD", "NETWORK", "DATABASE", "DB", "PRINTER", "QUEUE", "WORKER",
                     "JOB", "TEST", "DEPLOY", "DEPLOYMENT", "PIPELINE", "BACKUP", "SYNC", "UPLOAD", "SITE", "SERVICE",
                     "SYSTEM", "ENGINE", "PUMP", "SENSOR", "ALARM", "DOOR", "GATE", "LIFT", "ELEVATOR", "LIGHT",
                     "POWER", "SIGNAL", "WIFI", "INTERNET", "CONNECTION", "VPN", "CACHE", "CLUSTER", "NODE", "PORT",
                     "FIREWALL", "KITCHEN", "SHOP", "BAR", "RESTAURANT", "OFFICE", "OVEN", "FRIDGE", "HEATER",
                     "LAPTOP", "ROUTER", "CAMERA", "SCANNER", "PROCESS", "BRANCH", "REPO", "RUNNER", "STREAM",
                     "TANK", "BIN", "INBOX", "MAILBOX", "BUFFER", "POOL", "HOTEL", "FLIGHT", "TRAIN", "BUS", "PARK"})
INITIAL = re.compile(r"(?<!\w)[^\W\d_]\.")  # a name's initial, "A." of "A. A. Milne", no word "A" of speech
# What parts the items of a list: a comma or a semicolon, "and", "or", "&" ("Gold, silver and bronze medals.").
ITEM_BREAK = re.compile(r"\s*[,;]\s*(?:(?:and|or|&)\s+)?|\s+(?:and|or|&)\s+")
# The little words inside a person's name, in lower case ("Vincent van Gogh", "Leonardo da Vinci").
PARTICLES = frozenset({"de", "da", "di", "del", "della", "der", "den", "van", "von", "le", "la", "du", "dos", "bin",
                       "ibn", "y"})
# A credit's year after a person's name ("Ann Goldstein (2012)", "Tom Hanks (b. 1956)").
DATED = re.compile(r"\s*\((?:b\.\s*|c\.\s*)?\d{4}(?:\s*[-–]\s*\d{2,4})?\)\s*\Z")
LIST_ITEMS = 3  # a list has this many items or more: "Case, charger, cable."; "Yes, sir." is speech
ITEM_WORDS = 3  # and each this many words at most: a noun's phrase, not a clause
TIMED_WORDS = 3  # a time's or a price's value has this many words without a digit at most: "Daily at 17:30"


def status(label: list[str], said: str) -> bool:
    """Whether ``said`` after a label's words ``label`` (in capitals) is a thing's state, a status's value: a word in
    lower case alone before "!" that no one says of themselves (``MACHINE_STATES``: "BUILD: failed!", "WORKER:
    stopped!"), or one a person says too (``SHARED_STATES``) after a label that names a thing: a field's word, a
    plural or a system's (``SYSTEMS``: "DISK: full!", "SERVER: down!", "BUILD: done!").  After a name, it is a
    speaker's call ("ANNA: ready!", "TOM: down!", "MAX: full!"), which read as a status had the name translated
    alone."""
    words = re.findall(r"[^\W\d_]+", said)
    if len(words) != 1 or not words[0].islower() or re.search(r"!\W*\Z", said) is None or not label:
        return False
    word = words[0].upper()
    return word in MACHINE_STATES or (word in SHARED_STATES and (names_field(label) or plural(label[-1])
                                                                  or label[-1] in SYSTEMS))


def valued(label: list[str], said: str) -> bool:
    """Whether ``said``, what follows a label (its words ``label``, in capitals), reads as a field's value, where it
    would read as speech (attnmt.text.speaker_labels.speaks): a person's name or names after a role (``credited``,
    ``credits``: "TRANSLATOR: Ann Goldstein", a film's or a book's credits; not "HERMIONE: Ron Weasley"), a list of
    short items after a plural (``listed``: "ACCESSORIES: Case, charger, cable.", not "COACH: Run, jump, throw,
    repeat.") or a time or a price after a plural or a schedule's word (``timed``, ``scheduled``: "OPENING TIMES:
    Mon-Fri 9am-5pm", "LAST ENTRY: 16:30"; not "MARGARET: Tuesday at 10:30."), or a number in words after a field's
    label (``counted``: "DOGS: Three.", which the demo model wrote "DOGS: Drei Kerle.", the name kept as a speaker's;
    not "ANNA: Three."), or a measure in words after it or after a label of several words that names no person
    (``counted_measure``: "WEIGHT: Twelve kilos", "PREP TIME: Twenty minutes", read as a speaker's once, its English
    kept; not "JACK: Twenty minutes.", "OLD MAN: Ten minutes.", "MALCOLM X: Twenty years.", an initial's), or
    things counted in words after a plural (``counted_things``: "WORKERS: Two men.", "GUESTS: Two adults."); each
    ``unspoken``.  The value's shape alone said it once, and a speaker's name before a name or a time was
    translated alone ("HERMIONE: Ron Weasley")."""
    return bool(label) and unspoken(said) and ((credits(label) and credited(said, capitals=True))
                                               or (plural(label[-1]) and listed(said))
                                               or (scheduled(label) and timed(said))
                                               or (field_label(label) and (counted(said) or counted_measure(said)))
                                               or (len(label) >= 2 and min(map(len, label)) >= 2
                                                   and not names_person(label) and counted_measure(said))
                                               or (plural(label[-1]) and counted_things(said)))


def field_value(said: str) -> bool:
    """Whether ``said`` reads as a field's value whatever its label's name, a person's name or a time or a price
    without speech (``valued``'s shapes): after a label in title case ("Translator: Ann Goldstein", "Prix : dès 25 €"),
    which no speaker's name alone is written in (attnmt.text.speaker_labels.titled), its name cannot be lost."""
    return unspoken(said) and (credited(said) or timed(said))


def unspoken(said: str) -> bool:
    """Whether ``said`` holds no word of speech (``SPOKEN``, an initial left out: "A. A. Milne"), no question and no
    exclamation."""
    words = re.findall(r"[^\W\d_]+", INITIAL.sub("", said).upper())
    return not SPOKEN.intersection(words) and re.search(r"[?!¿¡]", said) is None


def field_label(label: list[str]) -> bool:
    """Whether a label's words ``label``, in capitals, name a field rather than a person (``names_field``, a
    ``plural``, a credit's role or a schedule's word: ``credits``, ``scheduled``): "PLAYERS", "LAST ENTRY",
    "DIRECTOR", not "ANNA", "MAN 2"; a number after such a label is its value ("PLAYERS: 2-4"), after any other what
    a speaker says ("ANNA: 5pm.")."""
    return bool(label) and (names_field(label) or credits(label) or scheduled(label))


def credits(label: list[str]) -> bool:
    """Whether a label's words ``label``, in capitals, name a credit: a role (``CREDITS``, its plural too:
    "TRANSLATOR", "EXECUTIVE PRODUCERS", "COVER DESIGN"), a plural ("GUESTS"), a field of persons (``NAMED_FIELDS``:
    "FULL NAME", "CAST"), or what a work is "BY" ("WRITTEN BY")."""
    return (label[-1] == "BY" or plural(label[-1]) or label[-1] in NAMED_FIELDS
            or any(word in CREDITS or word[:-1] in CREDITS for word in label))


def scheduled(label: list[str]) -> bool:
    """Whether a label's words ``label``, in capitals, name a time or a price: a plural ("DOORS", "TOLLS") or a
    schedule's first word (``SCHEDULES``: "LAST TOUR", "NEXT TRAIN", "OPENING TIMES")."""
    return plural(label[-1]) or label[0] in SCHEDULES


def plural(word: str) -> bool:
    """Whether ``word``, in capitals, reads as an English plural: "TIPS", "PRIZES", "ACCESSORIES"; not "GLASS",
    "MARCUS", "LEWIS", "LUCAS" (an English plural in "-AS" is rare, a name so common), nor a name whose "S" is no
    plural's (``NAMES_IN_S``: "JAMES", "CHARLES", "HANS"); or one of English's plurals without it (``IRREGULAR``:
    "CHILDREN: Two." read as a speaker's)."""
    return word in IRREGULAR or (len(word) > 3 and word.endswith("S") and not word.endswith(("SS", "US", "IS", "AS"))
                                 and word not in NAMES_IN_S)


def items(said: str) -> list[str]:
    """The items of ``said`` read as a list (``ITEM_BREAK``), its closing stop left out: "Gold, silver and bronze
    medals." is ["Gold", "silver", "bronze medals"]."""
    return [item for item in ITEM_BREAK.split(said.strip().rstrip(".")) if item]


def credited(said: str, capitals: bool = False) -> bool:
    """Whether ``said`` is a person's name or several (``person``), each with its year in brackets or none
    (``DATED``): "Ann Goldstein", "Tom Hanks, Meg Ryan", "Ann Goldstein (2012)"; with ``capitals``, after a credit's
    role, in capitals too ("TRANSLATOR: ANN GOLDSTEIN", as credits are written in capitals), where after any other
    label words in capitals are what a speaker shouts ("TOM: GET OUT")."""
    found = [DATED.sub("", item) for item in items(said.title() if capitals and said.isupper() else said)]
    return bool(found) and all(map(person, found))


def unit_measure(label: list[str], said: str) -> bool:
    """Whether ``said`` after a label's words ``label`` (in capitals), none of one letter but a code's last ("VITAMIN
    D"), that name no person (``names_person``: not "NURSE", nor "AGENT K") is a measure alone with its unit, a stop
    after it or none (attnmt.text.measure_values: a unit's abbreviation or a sign, "2 ml.", "5%", "37.5 °C", a known
    unit's symbol, "250 kcal", "5.4 mmol/L", or name, "3 bars"), no time nor price (``TIME_OR_PRICE``): a lab's, a
    label's or a form's value ("SPECIMEN: 2 ml.", "ENERGY: 250 kcal", which read as a speaker's kept "SPECIMEN:" and
    the demo model wrote "2 ml" "Zwei Chirurgen"), where a speaker says a time ("ANNA: 5pm"), a sum ("TOM: $40") or
    a time's count ("ANNA: 2 days.").  A name that says a measure in a script speaks in its other lines too, and is
    one of its speakers (speaker_labels.dialogue: "MARTA: 3 kg.")."""
    named = label[:-1] if len(label) > 1 and len(label[-1]) == 1 else label  # "VITAMIN D" without its code
    return (bool(named) and min(map(len, named)) > 1 and not names_person(named)
            and (measure_alone(said) or named_measure(said))
            and re.search(r"\d\s*[^\d\s.,:/-]", said) is not None and TIME_OR_PRICE.search(said) is None)


def person(item: str) -> bool:
    """Whether ``item`` is a person's name: two to four words, each a capital then letters in lower case (or
    "McCartney", "O'Brien", a title's "Dr."), an initial ("J.", "J.R.R.") or a name's particle (``PARTICLES``: "van",
    "de")."""
    words = item.split()
    return 2 <= len(words) <= 4 and all(word in PARTICLES or re.fullmatch(r"(?:[^\W\d_]\.)+", word) is not None
                                        or named(word.removesuffix(".")) for word in words)


def named(word: str) -> bool:
    """Whether ``word`` is written as a name is: a capital, then letters not all in capitals ("Ann", "McCartney",
    "O'Brien", "Smith-Jones")."""
    return word[:1].isupper() and not word.isupper() and all(ch.isalpha() or ch in "'’-" for ch in word)


def listed(said: str) -> bool:
    """Whether ``said`` is a list: ``LIST_ITEMS`` items or more, each ``ITEM_WORDS`` words at most, none said twice
    ("Flour, eggs, milk.", "Book early, bring water, wear good shoes."; not "Left, right, left, right.")."""
    found = [item.lower() for item in items(said)]
    return (len(found) >= LIST_ITEMS and len(set(found)) == len(found)
            and all(len(item.split()) <= ITEM_WORDS for item in found))


def timed(said: str) -> bool:
    """Whether ``said`` is a time or a price (``TIME_OR_PRICE``) with ``TIMED_WORDS`` words at most around it:
    "Mon-Fri 9am-5pm", "Daily at 17:30", "Adults €12, children €6"; not "At 8pm, by the fountain."."""
    words = [word for word in said.split() if not any(character.isdigit() for character in word)]
    return TIME_OR_PRICE.search(said) is not None and len(words) <= TIMED_WORDS


def kept_value(name: str, value: str) -> bool:
    """Whether a field's ``value`` after its ``name`` (as written, in any case) is kept as written, as it reads the
    same in the target language: a measure alone (``measure_alone``: "15 min"), or persons' names (``credited``)
    after a label that names who they are (``holds_persons``: "TRANSLATOR: Ann Goldstein", "Cast: Tom Hanks, Meg
    Ryan", "NAME: John Smith").  A name has no translation: the demo model wrote "Ann Goldstein" alone as "Ein Moner
    läuft"; a title-case value after another field's name ("COLOUR: Space Grey") is translated."""
    words = re.findall(r"[^\W\d_]+", name.upper())
    return measure_alone(value) or (holds_persons(words) and credited(value, capitals=True))


def holds_persons(label: list[str]) -> bool:
    """Whether a label's words ``label``, in capitals, say that its value names persons: its last is a credit's role
    (``CREDITS``, its plural too: "TRANSLATOR", "EXECUTIVE PRODUCERS"), a person's noun (``names_person``: "HEAD
    CHEF"), a field of persons (``NAMED_FIELDS``: "NAME", "CAST", "GUESTS") or "BY" ("WRITTEN BY")."""
    last = label[-1] if label else ""
    return bool(label) and (last == "BY" or names_person(label)
                            or any(each in CREDITS or each in NAMED_FIELDS for each in (last, last[:-1])))
