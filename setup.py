"""Build of the optional compiled core (Cython): conll_eval works without it (the numpy path),
so a machine without Cython or a C compiler still installs; ``CONLL_EVAL_PURE=1`` at build
time skips it too."""
import os

from setuptools import Extension, setup


def compiled_extensions():
    if os.environ.get("CONLL_EVAL_PURE"):
        return []
    try:
        import numpy
        from Cython.Build import cythonize
    except ImportError:  # no Cython: the numpy path only
        return []
    extensions = [Extension(f"conll_eval.{name}", [f"conll_eval/{name}.pyx"],
                            include_dirs=[numpy.get_include()],
                            define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
                            extra_compile_args=["-O3"], optional=True)
                  for name in ("_cscan", "_calign", "_ccount")]
    built = cythonize(extensions, language_level=3, quiet=True)
    for extension in built:  # cythonize makes new Extension objects: optional again
        extension.optional = True
    return built


setup(ext_modules=compiled_extensions())
