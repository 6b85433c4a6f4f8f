"""Build of the optional compiled core (Cython): conll_eval works without it (the numpy path),
so a machine without Cython or a C compiler still installs; ``CONLL_EVAL_PURE=1`` at build
time skips it too.

The build is kept quick: the modules are cythonized only when extensions are built (not in
each of pip's metadata steps), all at once in parallel, and compiled in parallel (one gcc per
usable CPU, ``-j N`` overrides) at ``-O2``.
"""
import os
from importlib.util import find_spec

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

#: longest compile first, so that it does not run alone at the end of a parallel build
MODULES = ("_cscan", "_cvalidate", "_ccount", "_calign", "_cenhanced")
#: -O2 after the interpreter's own CFLAGS (-O3 on some builds; the last -O wins): -O3 took
#: ~30% longer to compile and the benchmarks measured no gain from it.  -g0: no debug
#: information (the interpreter's CFLAGS ask for it): the modules are a quarter of the size
COMPILE_ARGS = ["-O2", "-g0"]


def usable_cpus() -> int:
    """The CPUs this process may run on (``taskset``, cpusets), not all the machine has."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # no affinity masks here (macOS, Windows)
        return os.cpu_count() or 1


class BuildCompiledCore(build_ext):
    """``build_ext`` that cythonizes the ``.pyx`` sources first (in parallel) and compiles the
    extensions in parallel; a module that fails to build is left out (``optional``)."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:  # no -j given
            self.parallel = usable_cpus()

    def run(self):
        if any(source.endswith(".pyx") for ext in self.extensions for source in ext.sources):
            self._cythonize()
        super().run()

    def _cythonize(self):
        # imported here: only a build of the extensions needs them (pip's metadata steps do not)
        import numpy
        from Cython.Build import cythonize

        workers = usable_cpus() if self.parallel is True else int(self.parallel)
        translated = cythonize(self.extensions, language_level=3, force=self.force,
                               nthreads=workers if workers > 1 else 0)
        sources = {ext.name: ext.sources for ext in translated}
        for ext in self.extensions:  # the same objects: build_ext.finalize_options annotated them
            ext.sources = sources[ext.name]
            ext.include_dirs.append(numpy.get_include())


def compiled_extensions():
    if os.environ.get("CONLL_EVAL_PURE"):
        return []
    if find_spec("Cython") is None or find_spec("numpy") is None:  # the numpy path only
        return []
    return [Extension(f"conll_eval.{name}", [f"conll_eval/{name}.pyx"],
                      define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
                      extra_compile_args=COMPILE_ARGS, optional=True)
            for name in MODULES]


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": BuildCompiledCore})
