"""The extensions of the office files and e-books that attnmt.documents.office translates, in a module of their own:
the server lists them as it starts and a command checks a file's name by them, and neither needs lxml and the office
parsers for that (loading them took 0.3 s of CPU of every ``attnmt serve``'s start)."""

MACRO_SUFFIXES = (".docm", ".pptm", ".xlsm")
# LibreOffice's flat files, each with its zipped kind
FLAT_SUFFIXES = {".fodt": ".odt", ".fods": ".ods", ".fodp": ".odp"}
SUFFIXES = (".docx", ".pptx", ".xlsx", *MACRO_SUFFIXES, ".odt", ".odp", ".ods", *FLAT_SUFFIXES, ".epub")
