"""The names of open fields that a line opens with in capitals before a colon, as a speaker's name is written: a
listing's, a recipe's, a job advert's, a medical note's, a form's or a program's (``BENEFITS: Free parking.``,
``INGREDIENTS: Flour, eggs, milk.``, ``SIDE EFFECTS: Nausea.``, ``DRESS CODE: Smart casual.``).  A reader wants such a
name translated with its value (``VORTEILE: ...``), where a speaker's name is kept as written
(attnmt.text.speaker_labels); read as a speaker's, "BENEFITS: Free parking and Wi-Fi." kept its English "BENEFITS:".

The words are common nouns no script gives a speaker: not a role (``HOST``, ``GUIDE``, ``PATIENT``, ``SECURITY``,
``CONTROL``, ``CLASS``, ``CREW`` speak in scripts and transcripts), nor a word that is also a usual given name or
surname (``HOPE``, ``PAGE``, ``COOK``, ``LINK``, ``POWERS``)."""

from __future__ import annotations

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
    "PREREQUISITE", "SYLLABUS", "MODULE", "GRADE", "SEMESTER", "TERM", "RULE", "MEAL", "EXTRA",
    # a form, an invoice, a review
    "AGE", "GENDER", "SEX", "NATIONALITY", "OCCUPATION", "DOB", "BIRTHDAY", "HEIGHT", "SIGNATURE", "ACCOUNT",
    "INVOICE", "ORDER", "AMOUNT", "BALANCE", "TAX", "VAT", "SUBTOTAL", "QTY", "ZIP", "POSTCODE", "CITY", "COUNTRY",
    "REGION", "WEBSITE", "FAX", "MOBILE", "TEL", "CONTACT", "COMMENT", "FEEDBACK", "RATING", "REVIEW", "VERDICT",
    "SCORE", "PROS", "CONS", "TIMELINE", "MILESTONE", "CAPTION", "CREDIT", "PHOTO", "IMAGE", "VIDEO",
    "DOWNLOAD",
    # a program's notes or a bug report
    "VERSION", "RELEASE", "PLATFORM", "LICENSE", "LICENCE", "DEPENDENCY", "DEPENDENCIES", "INSTALL", "INSTALLATION",
    "SETUP", "CONFIGURATION", "CHANGE", "FIX", "FIXES", "ADDED", "REMOVED", "CHANGED", "DEPRECATED", "WORKAROUND",
    "EXPECTED", "ACTUAL", "ENVIRONMENT", "OS", "BROWSER", "SEVERITY", "COMPONENT", "ASSIGNEE", "LABEL",
})


def names_field(words: list[str]) -> bool:
    """Whether a label's ``words``, in capitals, name a field: whole ("CHECK IN", "WI FI"), or its last word
    (``field_word``: "SIDE EFFECTS", "KEY BENEFITS", "DRESS CODE")."""
    return bool(words) and (" ".join(words) in FIELDS or field_word(words[-1]))


def field_word(word: str) -> bool:
    """Whether ``word``, in capitals, names a field (``FIELDS``), itself or its singular: "BENEFITS", "AMENITIES",
    "SIZE"; not "CHARLES", "HASTINGS"."""
    singulars = [word, word[:-1] if word.endswith("S") else "", word[:-3] + "Y" if word.endswith("IES") else ""]
    return any(each in FIELDS for each in singulars if each)
