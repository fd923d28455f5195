from config.code_digest import files_digest


def _tree(root):
    (root / "pkg" / "__pycache__").mkdir(parents=True)
    (root / "pkg" / "a.py").write_text("A = 1\n")
    (root / "pkg" / "tables").mkdir()
    (root / "pkg" / "tables" / "t.json").write_text("{}")
    return root / "pkg"


def test_a_changed_file_or_seed_changes_the_digest_and_compiled_files_do_not(tmp_path):
    pkg = _tree(tmp_path)
    before = files_digest(pkg)
    assert len(before) == 12
    (pkg / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\x00compiled")
    assert files_digest(pkg) == before
    assert files_digest(pkg, seed="django 5.2") != before
    (pkg / "tables" / "t.json").write_text('{"k": 1}')
    assert files_digest(pkg) != before


def test_a_renamed_file_changes_the_digest(tmp_path):
    pkg = _tree(tmp_path)
    before = files_digest(pkg)
    (pkg / "a.py").rename(pkg / "b.py")
    assert files_digest(pkg) != before
