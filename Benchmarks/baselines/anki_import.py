"""Anki's own import of a package into a fresh collection, for `QuireBench --anki` (the baseline).

    python3 anki_import.py PACKAGE.apkg
"""
import os, sys, tempfile

from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest

col = Collection(os.path.join(tempfile.mkdtemp(), "import.anki2"))
col.import_anki_package(ImportAnkiPackageRequest(package_path=sys.argv[1], options=ImportAnkiPackageOptions(with_scheduling=True)))
print(col.card_count())
col.close()
