"""The PEP 517 build backend of the geocluster Python package (pyproject.toml names it with
backend-path).

Why a backend of our own: the package is pure Python plus one shared library that SwiftPM
builds (the GeoclusterCAPI product, loaded with ctypes, so no CPython extension and no
compiler flags per Python version). scikit-build-core would add CMake, and setuptools an
extension-building detour, only to run one `swift build` and copy one file; a wheel is a zip
with three metadata files. This module does exactly that with the standard library, so
building needs nothing from PyPI (build-system.requires is empty) and every step is here.

The Swift sources are the repository around this folder (python/..), so the wheel is built
from a checkout: `pip install ./python` (pip builds in place). An sdist could not be built
without them, so build_sdist refuses with that reason. Environment:
  SWIFT                 the swift executable (default: `swift` on PATH)
  GEOCLUSTER_SWIFT_ROOT the package root holding Package.swift (default: this folder's parent)
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

NAME = "geocluster"
PYTHON_DIR = Path(__file__).resolve().parent.parent
PRODUCT = "GeoclusterCAPI"


def _version():
    text = (PYTHON_DIR / "geocluster" / "__init__.py").read_text()
    return re.search(r'^__version__ = "([^"]+)"', text, re.M).group(1)


def _library_name():
    return f"lib{PRODUCT}.dylib" if sys.platform == "darwin" else f"lib{PRODUCT}.so"


def _swift_build():
    """Builds the C library in release mode and returns its path. On Linux the Swift runtime
    is linked in (-static-stdlib: SwiftPM's --static-swift-stdlib applies to executables
    only) and the symbol table stripped, so the wheel runs without a Swift toolchain; on
    macOS the runtime is part of the OS."""
    root = Path(os.environ.get("GEOCLUSTER_SWIFT_ROOT", PYTHON_DIR.parent)).resolve()
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
            "Provides-Extra: sklearn\nRequires-Dist: scikit-learn>=1.6; extra == \"sklearn\"\n")


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def get_requires_for_build_wheel(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    library = _swift_build()
    version, tag = _version(), _platform_tag()
    files = {}
    for path in sorted((PYTHON_DIR / NAME).iterdir()):
        if path.suffix in (".py", ".h"):
            files[f"{NAME}/{path.name}"] = path.read_bytes()
    files[f"{NAME}/{_library_name()}"] = library.read_bytes()
    dist_info = f"{NAME}-{version}.dist-info"
    files[f"{dist_info}/METADATA"] = _metadata().encode()
    files[f"{dist_info}/WHEEL"] = (f"Wheel-Version: 1.0\nGenerator: geocluster_build\nRoot-Is-Purelib: false\n"
                                   f"Tag: py3-none-{tag}\n").encode()
    record = [_record_line(name, data) for name, data in files.items()] + [f"{dist_info}/RECORD,,"]
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel_name = f"{NAME}-{version}-py3-none-{tag}.whl"
    with zipfile.ZipFile(Path(wheel_directory) / wheel_name, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if name.endswith((".so", ".dylib")) else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
    return wheel_name


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_sdist(sdist_directory, config_settings=None):
    raise RuntimeError("geocluster's Python package is built from the repository's Swift sources; "
                       "there is no sdist: pip install ./python from a checkout")
