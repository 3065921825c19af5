"""The PEP 517 build backend of the geocluster Python package (pyproject.toml names it with
backend-path).

Why a backend of our own: the package is pure Python plus one shared library that SwiftPM
builds (the GeoclusterCAPI product, loaded with ctypes, so no CPython extension and no
compiler flags per Python version). scikit-build-core would add CMake, and setuptools an
extension-building detour, only to run one `swift build` and copy one file; a wheel is a zip
with three metadata files. This module does exactly that with the standard library, so
building needs nothing from PyPI (build-system.requires is empty) and every step is here.

The Swift sources are the repository around this folder (python/..) in a checkout
(`pip install ./python`), or swift/ inside an sdist, which carries them (build_sdist). The
distribution is `geocluster-hdbscan` and the import package `geocluster_hdbscan`: the name
`geocluster` on PyPI belongs to an unrelated package with a top-level `geocluster` module, and
two distributions writing one module folder break each other. A release wheel for Linux is
`make wheel` (this backend, then auditwheel for the manylinux tag). Environment:
  SWIFT                 the swift executable (default: `swift` on PATH)
  GEOCLUSTER_SWIFT_ROOT the package root holding Package.swift (default: swift/ in an sdist,
                        else this folder's parent)
"""

import base64
import hashlib
import os
import platform
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

# The distribution's name on PyPI and the import package's: "geocluster" on PyPI is an unrelated
# 2014 package whose top-level module is also `geocluster`, so both names are our own.
NAME = "geocluster-hdbscan"
PACKAGE = "geocluster_hdbscan"
PYTHON_DIR = Path(__file__).resolve().parent.parent
PRODUCT = "GeoclusterCAPI"
HEADER = Path("Sources/GeoclusterCHeader/include/geocluster.h")


def _version():
    text = (PYTHON_DIR / PACKAGE / "__init__.py").read_text()
    return re.search(r'^__version__ = "([^"]+)"', text, re.M).group(1)


def _library_name():
    return f"lib{PRODUCT}.dylib" if sys.platform == "darwin" else f"lib{PRODUCT}.so"


def _swift_build():
    """Builds the C library in release mode and returns its path. On Linux the Swift runtime
    is linked in (-static-stdlib: SwiftPM's --static-swift-stdlib applies to executables
    only) and the symbol table stripped, so the wheel runs without a Swift toolchain; on
    macOS the runtime is part of the OS."""
    root = _swift_root()
    if not (root / "Package.swift").is_file():
        raise RuntimeError(f"no Package.swift in {root}: build the wheel from a geocluster checkout "
                           "(pip install ./python) or set GEOCLUSTER_SWIFT_ROOT")
    swift = os.environ.get("SWIFT") or shutil.which("swift")
    if not swift:
        raise RuntimeError("swift not found: install the Swift toolchain (swift.org) or set SWIFT")
    scratch = root / ".build" / "python"
    command = [swift, "build", "-c", "release", "--product", PRODUCT, "--scratch-path", str(scratch)]
    if sys.platform.startswith("linux"):
        command += ["-Xswiftc", "-static-stdlib", "-Xlinker", "--strip-all"]
    print("+ " + " ".join(command), file=sys.stderr, flush=True)
    subprocess.run(command, cwd=root, check=True, stdout=sys.stderr)
    library = scratch / "release" / _library_name()
    if not library.is_file():
        raise RuntimeError(f"swift build finished but {library} is missing")
    return library


def _platform_tag():
    tag = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    if sys.platform == "darwin" and tag.endswith("universal2"):
        tag = tag[: -len("universal2")] + platform.machine()
    return tag


def _metadata():
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {_version()}\n"
            "Summary: Exact, fast HDBSCAN and DBSCAN of 2-D points as scikit-learn estimators\n"
            "Requires-Python: >=3.9\nRequires-Dist: numpy>=1.23\n"
            "Provides-Extra: sklearn\nRequires-Dist: scikit-learn>=1.6; extra == \"sklearn\"\n"
            + "".join(_extra(name, requirements) for name, requirements in EXTRAS.items()))


# The engines' extras (docs/engines.md), as python/pyproject.toml lists them.
EXTRAS = {"spark": ["pyspark>=3.5", "pyarrow>=11", "pandas>=2", "scipy>=1.10"],
          "dask": ["dask[dataframe]>=2024.12", "distributed>=2024.12", "pandas>=2", "scipy>=1.10"]}


def _extra(name, requirements):
    return f"Provides-Extra: {name}\n" + "".join(f'Requires-Dist: {r}; extra == "{name}"\n' for r in requirements)


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def get_requires_for_build_wheel(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    library = _swift_build()
    version, tag = _version(), _platform_tag()
    files = {}
    for path in sorted((PYTHON_DIR / PACKAGE).iterdir()):
        if path.suffix == ".py":
            files[f"{PACKAGE}/{path.name}"] = path.read_bytes()
    # The library and its C header, for callers in other languages (the package's ctypes
    # table is checked against it).
    files[f"{PACKAGE}/{_library_name()}"] = library.read_bytes()
    files[f"{PACKAGE}/{HEADER.name}"] = (_swift_root() / HEADER).read_bytes()
    dist_info = f"{PACKAGE}-{version}.dist-info"
    files[f"{dist_info}/METADATA"] = _metadata().encode()
    files[f"{dist_info}/WHEEL"] = (f"Wheel-Version: 1.0\nGenerator: geocluster_build\nRoot-Is-Purelib: false\n"
                                   f"Tag: py3-none-{tag}\n").encode()
    record = [_record_line(name, data) for name, data in files.items()] + [f"{dist_info}/RECORD,,"]
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel_name = f"{PACKAGE}-{version}-py3-none-{tag}.whl"
    with zipfile.ZipFile(Path(wheel_directory) / wheel_name, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if name.endswith((".so", ".dylib")) else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
    return wheel_name


def get_requires_for_build_sdist(config_settings=None):
    return []


# What of the Swift package an sdist carries under swift/: the manifest, the sources, and every
# folder the manifest names a target in (SwiftPM refuses a manifest whose targets are missing).
_SWIFT_PARTS = ("Package.swift", "Sources", "Tests", "Benchmarks/PinsBench")


def _swift_root():
    """The Swift package: swift/ inside an unpacked sdist, else the checkout around python/."""
    override = os.environ.get("GEOCLUSTER_SWIFT_ROOT")
    if override:
        return Path(override).resolve()
    bundled = PYTHON_DIR / "swift"
    return bundled if (bundled / "Package.swift").is_file() else PYTHON_DIR.parent


def _sdist_files(root):
    """(archive name, path) of every file the sdist holds, sorted."""
    files = [("pyproject.toml", PYTHON_DIR / "pyproject.toml"),
             ("_build/geocluster_build.py", PYTHON_DIR / "_build" / "geocluster_build.py")]
    for folder in (PACKAGE, "tests"):
        for path in sorted((PYTHON_DIR / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".so":
                files.append((str(path.relative_to(PYTHON_DIR)), path))
    for part in _SWIFT_PARTS:
        path = root / part
        paths = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        files += [(f"swift/{p.relative_to(root)}", p) for p in paths]
    return sorted(files)


def build_sdist(sdist_directory, config_settings=None):
    """The Python package with the Swift sources it builds from (under swift/), so that
    `pip install` of the sdist builds the library where a wheel does not fit (a Swift toolchain
    is then needed)."""
    import io
    import tarfile
    root = _swift_root()
    if not (root / "Package.swift").is_file():
        raise RuntimeError(f"no Package.swift in {root}: build the sdist from a geocluster checkout")
    base = f"{PACKAGE}-{_version()}"
    name = f"{base}.tar.gz"
    with tarfile.open(Path(sdist_directory) / name, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        def add(arcname, data, mode=0o644):
            info = tarfile.TarInfo(f"{base}/{arcname}")
            info.size, info.mtime, info.mode = len(data), 1577836800, mode
            tar.addfile(info, io.BytesIO(data))
        add("PKG-INFO", _metadata().encode())
        for arcname, path in _sdist_files(root):
            add(arcname, path.read_bytes())
    return name
