# source: https://github.com/reflective-org/MAM4-JAX/commit/026bccd0ef6ac9a0e075b1d5679f8eb567e8bfec
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: topology_jit names `topology` in static_argnames but the kernel takes it positionally; JAX maps static_argnames onto the POSITIONAL_OR_KEYWORD parameter, so it is static: the repeated e3sm call hits the cache and only the switch to the alt topology retraces (2 compiles for 3 calls, correct values).
# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")



import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from types import SimpleNamespace  # scaffolding
import dataclasses  # scaffolding: the test module's import
jax.config.update("jax_enable_x64", True)  # scaffolding: importing mam4_jax enables x64 (mam4_jax/__init__.py)

# ---- mam4_jax/topology.py ----
"""Aerosol mode topology as a parameter, not a hard-coded module.

WHY THIS EXISTS. ``data.py`` pins one configuration -- E3SM's MAM4-MOM -- as
module-level constants. Supporting CESM/CAM, and MAM5 in particular, means the
mode count, the species carried by each mode, the size distribution and the
tracer index tables all become configuration rather than constants.

TWO ORTHOGONAL AXES, deliberately not one:

  ``variant``  "e3sm" | "cesm"   -- which code line's parameter values
  ``nmodes``   4 | 5             -- whether the coarse_strat mode is present

E3SM has no 5-mode configuration, so ``("e3sm", 5)`` is rejected at
construction. Every other combination is legal. Stratospheric water uptake is a
THIRD, independent axis and is deliberately not represented here: it already
runs in the 4-mode Fortran configuration, so tying it to ``nmodes`` would encode
a coupling that does not exist.

WHY MAM4 IS NOT A FORK OF MAM5. Verified in the CAM sources: the only
``MODAL_AERO_5MODE`` reference in the seven microphysics kernels is
``modal_aero_coag.F90:27``, and it places MAM5 in the *same* branch as MAM4
(``pair_option_acoag = 3``). The kernels are one code path with a mode count.
That is what makes a parameter the right shape here rather than a second module.

SCOPE OF THIS MODULE (plan 024 revision 2, PR B). It introduces the type, the
validation and the E3SM instance built from ``data.py``'s existing literals --
so the E3SM path is provably bit-unchanged. The CAM instances need index tables
extracted from CAM's chemistry preprocessor, which lands in PRs C-E; inventing
them here would be worse than their absence.

⚠ HOW TO CONSUME THIS FROM A JITTED KERNEL (PR C, and the reason `Topology` is
frozen and hashable). Do NOT read ``get_topology()`` from inside a jitted
function body. jit caches are not keyed on module globals, so a kernel traced
under one topology keeps returning that topology's answer after
``set_topology`` -- silently wrong physics, no warning. Confirmed empirically
during the PR-B review. Pass the topology in as a hashable static argument
instead, and give the change a test asserting that switching topologies
actually changes a jitted result.
"""
# from __future__ import annotations  # scaffolding: cannot follow the harness; the annotations evaluate fine without it

import functools
import warnings
from dataclasses import dataclass

import numpy as np

# Detecting "are we inside a jit trace" has no public JAX API. This uses a
# private one, defensively: if a JAX upgrade moves it, the guard degrades to a
# no-op rather than breaking the package. The guard is a safety net, so failing
# open is the right direction -- but see _TRACE_PROBE_AVAILABLE, which the test
# suite asserts on so a silent degradation is noticed.
try:                                                        # pragma: no cover
    from jax._src.core import trace_ctx as _trace_ctx

    def _inside_jit_trace() -> bool:
        return type(_trace_ctx.trace).__name__ != "EvalTrace"

    _TRACE_PROBE_AVAILABLE = True
except Exception:                                           # pragma: no cover
    def _inside_jit_trace() -> bool:
        return False

    _TRACE_PROBE_AVAILABLE = False

__all__ = [
    "Topology",
    "get_topology",
    "register_topology",
    "set_topology",
    "available_topologies",
    "topology_jit",
    "trace_policy",
]

_VALID_VARIANTS = ("e3sm", "cesm")


@dataclass(frozen=True)
class Topology:
    """One fully-specified aerosol mode configuration.

    Every field is a primitive the Fortran also carries; derived quantities
    (``alnsg``, ``voltonumb*``, ``dumfac``) are computed here rather than stored,
    so they cannot drift out of sync with the values they come from.
    """

    name: str
    variant: str
    nmodes: int
    pcnst: int

    mode_names: tuple[str, ...]
    specname_amode: tuple[str, ...]
    nspec_amode: tuple[int, ...]

    # 0-based pcnst indices. -1 marks an unused SLOT in the per-(mode, slot)
    # tables below; numptr_amode has one entry per mode and is never -1.
    numptr_amode: tuple[int, ...]
    numptrcw_amode: tuple[int, ...]
    lspectype_amode: tuple[tuple[int, ...], ...]
    lmassptr_amode: tuple[tuple[int, ...], ...]
    lmassptrcw_amode: tuple[tuple[int, ...], ...]

    # Indexed by species TYPE (into specname_amode).
    specdens_amode: tuple[float, ...]
    spechygro_amode: tuple[float, ...]

    # Per-mode size distribution.
    sigmag_amode: tuple[float, ...]
    dgnum_amode: tuple[float, ...]
    dgnumlo_amode: tuple[float, ...]
    dgnumhi_amode: tuple[float, ...]
    rhcrystal_amode: tuple[float, ...]
    rhdeliques_amode: tuple[float, ...]

    provenance: str = ""

    # -- validation ---------------------------------------------------------
    def __post_init__(self) -> None:
        if self.variant not in _VALID_VARIANTS:
            raise ValueError(
                f"{self.name}: variant must be one of {_VALID_VARIANTS}, "
                f"got {self.variant!r}"
            )
        if self.nmodes not in (4, 5):
            raise ValueError(f"{self.name}: nmodes must be 4 or 5, got {self.nmodes}")
        if self.variant == "e3sm" and self.nmodes != 4:
            # E3SMv1 has no coarse_strat mode. Catching this at construction
            # keeps an impossible configuration from reaching the kernels.
            raise ValueError(
                f"{self.name}: E3SM has no {self.nmodes}-mode configuration; "
                "coarse_strat is CAM-only"
            )

        per_mode = {
            "mode_names": self.mode_names,
            "nspec_amode": self.nspec_amode,
            "numptr_amode": self.numptr_amode,
            "numptrcw_amode": self.numptrcw_amode,
            "lspectype_amode": self.lspectype_amode,
            "lmassptr_amode": self.lmassptr_amode,
            "lmassptrcw_amode": self.lmassptrcw_amode,
            "sigmag_amode": self.sigmag_amode,
            "dgnum_amode": self.dgnum_amode,
            "dgnumlo_amode": self.dgnumlo_amode,
            "dgnumhi_amode": self.dgnumhi_amode,
            "rhcrystal_amode": self.rhcrystal_amode,
            "rhdeliques_amode": self.rhdeliques_amode,
        }
        for label, value in per_mode.items():
            if len(value) != self.nmodes:
                raise ValueError(
                    f"{self.name}: {label} has {len(value)} entries, "
                    f"expected nmodes = {self.nmodes}"
                )

        nspec_types = len(self.specname_amode)
        for label, value in (("specdens_amode", self.specdens_amode),
                             ("spechygro_amode", self.spechygro_amode)):
            if len(value) != nspec_types:
                raise ValueError(
                    f"{self.name}: {label} has {len(value)} entries, expected "
                    f"{nspec_types} to match specname_amode"
                )

        # Slot tables must actually carry nspec_amode[m] populated entries, and
        # every populated species index must be a real species. A silent -1 in a
        # populated slot is the failure mode that produces zero-valued physics
        # rather than an error, so it is checked rather than assumed.
        for m in range(self.nmodes):
            n = self.nspec_amode[m]
            if not 0 <= n <= len(self.specname_amode):
                # A negative count makes range(n) empty, which would skip this
                # mode's entire slot loop and leave every pointer in it
                # unvalidated -- silent, and exactly the wrong direction.
                raise ValueError(
                    f"{self.name}: nspec_amode[{m}] = {n} outside "
                    f"[0, {len(self.specname_amode)}]"
                )
            for table_name in ("lspectype_amode", "lmassptr_amode",
                               "lmassptrcw_amode"):
                row = getattr(self, table_name)[m]
                if n > len(row):
                    raise ValueError(
                        f"{self.name}: mode {m} declares {n} species but "
                        f"{table_name}[{m}] has only {len(row)} slots"
                    )
            for s in range(n):
                if self.lspectype_amode[m][s] < 0:
                    raise ValueError(
                        f"{self.name}: mode {m} slot {s} is within "
                        f"nspec_amode = {n} but lspectype_amode is -1"
                    )
                if self.lspectype_amode[m][s] >= nspec_types:
                    raise ValueError(
                        f"{self.name}: mode {m} slot {s} references species "
                        f"{self.lspectype_amode[m][s]}, only {nspec_types} exist"
                    )
                if self.lmassptr_amode[m][s] < 0:
                    raise ValueError(
                        f"{self.name}: mode {m} slot {s} is within "
                        f"nspec_amode = {n} but lmassptr_amode is -1"
                    )
                if self.lmassptr_amode[m][s] >= self.pcnst:
                    raise ValueError(
                        f"{self.name}: mode {m} slot {s} points at pcnst index "
                        f"{self.lmassptr_amode[m][s]}, pcnst = {self.pcnst}"
                    )
            if not 0 <= self.numptr_amode[m] < self.pcnst:
                raise ValueError(
                    f"{self.name}: numptr_amode[{m}] = {self.numptr_amode[m]} "
                    f"outside [0, pcnst = {self.pcnst})"
                )

        # Every interstitial tracer index must be claimed exactly once. Two
        # modes sharing a mass tracer, or a number pointer colliding with a
        # mass pointer, is accepted arithmetic and silently double-counts mass.
        # That is the same class of quiet-wrong-physics as the -1 rule above,
        # and it is the specific failure mode of hand-extracting CAM's tables.
        seen: dict[int, str] = {}
        for m in range(self.nmodes):
            claims = [(self.numptr_amode[m], f"numptr_amode[{m}]")]
            claims += [
                (self.lmassptr_amode[m][s], f"lmassptr_amode[{m}][{s}]")
                for s in range(self.nspec_amode[m])
            ]
            for idx, label in claims:
                if idx in seen:
                    raise ValueError(
                        f"{self.name}: pcnst index {idx} claimed by both "
                        f"{seen[idx]} and {label}"
                    )
                seen[idx] = label

        for m in range(self.nmodes):
            if not (self.dgnumlo_amode[m] < self.dgnum_amode[m]
                    < self.dgnumhi_amode[m]):
                raise ValueError(
                    f"{self.name}: mode {m} violates "
                    f"dgnumlo < dgnum < dgnumhi: "
                    f"{self.dgnumlo_amode[m]:.3e} / {self.dgnum_amode[m]:.3e} / "
                    f"{self.dgnumhi_amode[m]:.3e}"
                )
            if self.sigmag_amode[m] <= 1.0:
                raise ValueError(
                    f"{self.name}: mode {m} sigmag = {self.sigmag_amode[m]} "
                    "must exceed 1"
                )

    # -- derived quantities -------------------------------------------------
    # Definitions from modal_aero_initialize_data.F90:428-435:
    #     alnsg     = log(sigmag)
    #     voltonumb = 1 / ( (pi/6) * dgnum^3 * exp(4.5 * alnsg^2) )
    #     dumfac    =       (pi/6)           * exp(4.5 * alnsg^2)

    @property
    def alnsg_amode(self) -> np.ndarray:
        return np.log(np.asarray(self.sigmag_amode, dtype=np.float64))

    @property
    def dumfac_amode(self) -> np.ndarray:
        return (np.pi / 6.0) * np.exp(4.5 * self.alnsg_amode ** 2)

    def _voltonumb(self, dgn: tuple[float, ...]) -> np.ndarray:
        return 1.0 / (self.dumfac_amode * np.asarray(dgn, dtype=np.float64) ** 3)

    @property
    def voltonumb_amode(self) -> np.ndarray:
        return self._voltonumb(self.dgnum_amode)

    @property
    def voltonumblo_amode(self) -> np.ndarray:
        return self._voltonumb(self.dgnumlo_amode)

    @property
    def voltonumbhi_amode(self) -> np.ndarray:
        return self._voltonumb(self.dgnumhi_amode)

    # -- convenience --------------------------------------------------------
    def mode_index(self, name: str) -> int:
        """0-based index of a named mode. Raises if absent."""
        try:
            return self.mode_names.index(name)
        except ValueError:
            raise KeyError(
                f"{self.name} has no mode {name!r}; modes are {self.mode_names}"
            ) from None

    def has_mode(self, name: str) -> bool:
        return name in self.mode_names

    @property
    def is_mam5(self) -> bool:
        return self.has_mode("coarse_strat")

    def __str__(self) -> str:
        return f"{self.name} (variant={self.variant}, nmodes={self.nmodes})"


# ---------------------------------------------------------------------------
# Registry.
#
# E3SM_MAM4_MOM is constructed in data.py, from the literals that already live
# there, and registered on import. Building it from those literals rather than
# re-typing them is deliberate: it makes "the E3SM path is bit-unchanged" a
# property of the code rather than a claim about my transcription.
# ---------------------------------------------------------------------------

_REGISTRY: dict[str, Topology] = {}
_ACTIVE: list[Topology] = []       # single-element; list so it stays mutable


def register_topology(topology: Topology, *, make_active: bool = False) -> Topology:
    """Add `topology` to the registry.

    Registration deliberately does NOT activate implicitly. An earlier version
    activated whenever nothing was active yet, which meant the first import of
    any module that registers could silently revert an explicit
    ``set_topology`` choice. Callers say what they mean.
    """
    _REGISTRY[topology.name] = topology
    if make_active:
        _ACTIVE[:] = [topology]        # single store; no window with 0 entries
    return topology


# What to do when get_topology() is called during a jit trace. "error" by
# default: reading the active topology from inside a traced function bakes it
# into that trace, and the cache is not keyed on it, so a later set_topology
# silently returns the old answer. See the module docstring.
_TRACE_POLICY = ["error"]


def trace_policy(policy: str | None = None) -> str:
    """Get, or set, what happens when get_topology() runs inside a jit trace.

    ``"error"`` (default), ``"warn"``, or ``"allow"``. The escape hatch exists
    for the deliberate case where a caller knows the kernel is retraced per
    topology; it should be rare, and reaching for it is a signal to pass the
    topology as a static argument instead.

    The policy is process-global, not thread-local, so ``"allow"`` disables the
    guard for every thread.

    KNOWN FALSE POSITIVES. The probe reports "tracing" for any trace, but only
    some traces actually go stale. Measured: bare ``vmap`` and bare
    ``grad``/``jvp``/``vjp`` -- with no jit and no ``lax`` control-flow
    primitive -- retrace on every call, so a global read there is correct and
    the guard is over-strict. Everything else tested does go stale, including
    ``scan``, ``fori_loop``, ``cond`` and ``while_loop`` *outside* jit (their
    bodies are cached on the callable by ``_initial_style_jaxpr``). The
    over-strictness is loud rather than silent, and passing the topology as a
    static argument is the right answer in the false-positive cases too.
    """
    if policy is None:
        return _TRACE_POLICY[0]
    if policy not in ("error", "warn", "allow"):
        raise ValueError(
            f"trace policy must be 'error', 'warn' or 'allow', got {policy!r}"
        )
    _TRACE_POLICY[0] = policy
    return policy


_TRACE_MESSAGE = (
    "get_topology() was called inside a jit trace. jit caches are not keyed on "
    "module globals, so this bakes the CURRENT topology into the compiled "
    "function: after set_topology(...) the kernel keeps returning the old "
    "topology's answer, with no error and no warning. Pass the Topology in as a "
    "static argument instead -- it is frozen and hashable for exactly this "
    "purpose, e.g. @topology_jit or jax.jit(f, static_argnames=('topology',)). "
    "If this really is intentional, wrap the call in "
    "mam4_jax.topology.trace_policy('allow')."
)


def get_topology() -> Topology:
    """The active topology.

    Raises inside a jit trace by default; see :func:`trace_policy`.
    """
    if not _ACTIVE:
        raise RuntimeError(
            "no topology registered; import mam4_jax.data before use"
        )
    if _inside_jit_trace():
        policy = _TRACE_POLICY[0]
        if policy == "error":
            raise RuntimeError(_TRACE_MESSAGE)
        if policy == "warn":
            warnings.warn(_TRACE_MESSAGE, RuntimeWarning, stacklevel=2)
    return _ACTIVE[0]


def topology_jit(fn=None, **jit_kwargs):
    """``jax.jit`` with ``topology`` treated as a static argument.

    The safe counterpart to reading ``get_topology()`` inside a kernel: the
    topology participates in the cache key, so switching topologies retraces
    instead of silently reusing the previous compilation.

    ``topology`` may be passed positionally or by keyword -- JAX resolves
    ``static_argnames`` onto argnums for POSITIONAL_OR_KEYWORD parameters, so
    both are genuinely static.

    Usage::

        @topology_jit
        def kernel(q, *, topology):
            return q * topology.voltonumb_amode[0]

        kernel(q, topology=get_topology())
    """
    import jax

    def wrap(f):
        # .get + a copy, NOT .pop: popping mutates the dict closed over by
        # `wrap`, so reusing a factory result silently dropped the caller's
        # static argnames on every function after the first --
        #     deco = topology_jit(static_argnames=("mode",))
        #     @deco
        #     def k1(...)   # ('mode', 'topology')
        #     @deco
        #     def k2(...)   # ('topology',)  <- 'mode' silently dynamic
        # and when the static arg is only used for indexing that degrades
        # quietly into a dynamic argument rather than raising.
        names = set(jit_kwargs.get("static_argnames", ()))
        names.add("topology")
        rest = {k: v for k, v in jit_kwargs.items() if k != "static_argnames"}
        return jax.jit(f, static_argnames=tuple(sorted(names)), **rest)

    return wrap if fn is None else wrap(fn)


def set_topology(topology: "Topology | str") -> Topology:
    """Make `topology` active, by instance or by registered name.

    Note this does NOT retroactively change ``data.py``'s module-level
    constants, which are bound at import for the default. Threading the active
    topology through the call sites is PR C onward; until then, switching is
    only meaningful for code that reads ``get_topology()`` directly.
    """
    if isinstance(topology, str):
        try:
            topology = _REGISTRY[topology]
        except KeyError:
            raise KeyError(
                f"unknown topology {topology!r}; registered: "
                f"{sorted(_REGISTRY)}"
            ) from None
    _REGISTRY.setdefault(topology.name, topology)
    _ACTIVE[:] = [topology]
    return topology


def available_topologies() -> tuple[str, ...]:
    return tuple(sorted(_REGISTRY))


# NOTE: the E3SM instance lives at ``mam4_jax.data.E3SM_MAM4_MOM``, built there
# from that module's own literals (see data.py). It is deliberately NOT
# re-exported here: an earlier version declared it as None for data.py to
# populate, and data.py never assigned back, so
# ``from mam4_jax.topology import E3SM_MAM4_MOM`` silently handed out None.
# Use ``get_topology()`` or import from ``mam4_jax.data``.


# ---- mam4_jax/data.py (the constants E3SM_MAM4_MOM is built from, and its construction) ----
PCNST: int = 35
PCOLS: int = 1
PVER: int = 1

NTOT_AMODE: int = 4
NTOT_ASPECTYPE: int = 9
MAXD_ASPECTYPE: int = 14

NBC: int = 1
NPOA: int = 1
NSOA: int = 1
NSOAG: int = 1

# Mode names in Fortran order (modal_aero_data.F90:104-109).
# Fortran uses 1-based indices; this tuple is 0-indexed.
MODE_NAMES: tuple[str, ...] = (
    "accum",
    "aitken",
    "coarse",
    "primary_carbon",
)

# Aerosol species type names (modal_aero_data.F90:49-52, in 1-based order;
# the per-slot lspectype_amode arrays below are 0-based indices into this).
SPECNAME_AMODE: tuple[str, ...] = (
    "sulfate",
    "ammonium",
    "nitrate",
    "p-organic",
    "s-organic",
    "black-c",
    "seasalt",
    "dust",
    "m-organic",
)

# Number of species in each mode (modal_aero_data.F90:121-123).
NSPEC_AMODE: tuple[int, ...] = (7, 4, 7, 3)


# ---------------------------------------------------------------------------
# Runtime index tables — values captured from a Fortran instrumented build
# (scripts/patches/, ADR-012) and hard-coded here for the pinned MAM4-MOM
# config. Regenerable via:
#     python scripts/capture_reference.py --mode instrumented
# then compare against tests/reference/indices/reference.npz.
#
# All values are 0-based pcnst indices. -1 means "unused slot" (the
# Fortran writes 0 in those positions; we convert).
# ---------------------------------------------------------------------------

# numptr_amode[mode] -> pcnst index of that mode's number tracer.
NUMPTR_AMODE: tuple[int, ...] = (17, 22, 30, 34)

# numptrcw_amode mirrors numptr_amode at init (per modal_aero_initialize_data).
NUMPTRCW_AMODE: tuple[int, ...] = (17, 22, 30, 34)

# lspectype_amode[mode, slot] -> 0-based index into SPECNAME_AMODE for that
# (mode, slot). -1 for slots past nspec_amode[mode].
LSPECTYPE_AMODE: tuple[tuple[int, ...], ...] = (
    (0, 3, 4, 5, 7, 6, 8, -1, -1, -1, -1, -1, -1, -1),
    (0, 4, 6, 8, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1),
    (7, 6, 0, 5, 3, 4, 8, -1, -1, -1, -1, -1, -1, -1),
    (3, 5, 8, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1),
)

# lmassptr_amode[mode, slot] -> pcnst index of mass tracer at (mode, slot).
LMASSPTR_AMODE: tuple[tuple[int, ...], ...] = (
    (10, 11, 12, 13, 14, 15, 16, -1, -1, -1, -1, -1, -1, -1),
    (18, 19, 20, 21, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1),
    (23, 24, 25, 26, 27, 28, 29, -1, -1, -1, -1, -1, -1, -1),
    (31, 32, 33, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1),
)

# Cloud-borne mirror — equal to LMASSPTR_AMODE at init time.
LMASSPTRCW_AMODE: tuple[tuple[int, ...], ...] = LMASSPTR_AMODE


# ---------------------------------------------------------------------------
# Per-species physical properties (indexed by species TYPE — 0-based into
# SPECNAME_AMODE). Values verbatim from
# rad_constituents.F90:96-103 (MODAL_AERO_4MODE_MOM branch).
# ---------------------------------------------------------------------------

#: Aerosol species density (kg/m³) by species type.
SPECDENS_AMODE: tuple[float, ...] = (
    1770.0,    # sulfate
    1770.0,    # ammonium
    1770.0,    # nitrate
    1000.0,    # p-organic
    1000.0,    # s-organic
    1700.0,    # black-c
    1900.0,    # seasalt
    2600.0,    # dust
    1601.0,    # m-organic
)

#: Volume-mean hygroscopicity by species type (dimensionless).
SPECHYGRO_AMODE: tuple[float, ...] = (
    0.507,     # sulfate
    0.507,     # ammonium
    0.507,     # nitrate
    0.010,     # p-organic
    0.140,     # s-organic
    1.0e-10,   # black-c
    1.160,     # seasalt
    0.068,     # dust
    0.100,     # m-organic
)


# ---------------------------------------------------------------------------
# Per-mode log-normal width and crystal/deliques thresholds.
# Sources:
#   - sigmag from rad_constituents.F90:170 (MODAL_AERO_4MODE/4MODE_MOM)
#   - rhcrystal/rhdeliques from rad_constituents.F90:180-181
# All four MAM4-MOM modes share rhcrystal = 0.35 and rhdeliques = 0.80.
# ---------------------------------------------------------------------------

#: Log-normal width of each mode's size distribution.
SIGMAG_AMODE: tuple[float, ...] = (
    1.800,     # accum
    1.600,     # aitken
    1.800,     # coarse
    1.600,     # primary_carbon
)

#: Reference dry diameter per mode (m). From
#: ``rad_constituents.F90:167`` (MAM4-MOM branch). Also the namelist
#: defaults written by ``scripts/capture_reference.py``.
DGNUM_AMODE:   tuple[float, ...] = (0.1100e-6, 0.0260e-6, 2.000e-6, 0.050e-6)

#: Lower / upper bounds on dry diameter per mode (m). Outside these
#: bounds ``modal_aero_calcsize_sub`` triggers its number-bounds
#: adjustment. From ``rad_constituents.F90:168-169``.
DGNUMLO_AMODE: tuple[float, ...] = (0.0535e-6, 0.0087e-6, 1.000e-6, 0.010e-6)
DGNUMHI_AMODE: tuple[float, ...] = (0.4400e-6, 0.0520e-6, 4.000e-6, 0.100e-6)

#: Crystallization relative humidity (below which aerosol is dry).
RHCRYSTAL_AMODE: tuple[float, ...] = (0.350, 0.350, 0.350, 0.350)

#: Deliquescence relative humidity (above which aerosol is fully wet).
RHDELIQUES_AMODE: tuple[float, ...] = (0.800, 0.800, 0.800, 0.800)

# from .topology import Topology as _Topology, register_topology as _register_topology  # noqa: E402
_Topology, _register_topology = Topology, register_topology  # scaffolding: same module here

E3SM_MAM4_MOM: _Topology = _register_topology(
    _Topology(
        name="e3sm_mam4_mom",
        variant="e3sm",
        nmodes=NTOT_AMODE,
        pcnst=PCNST,
        mode_names=MODE_NAMES,
        specname_amode=SPECNAME_AMODE,
        nspec_amode=NSPEC_AMODE,
        numptr_amode=NUMPTR_AMODE,
        numptrcw_amode=NUMPTRCW_AMODE,
        lspectype_amode=LSPECTYPE_AMODE,
        lmassptr_amode=LMASSPTR_AMODE,
        lmassptrcw_amode=LMASSPTRCW_AMODE,
        specdens_amode=SPECDENS_AMODE,
        spechygro_amode=SPECHYGRO_AMODE,
        sigmag_amode=SIGMAG_AMODE,
        dgnum_amode=DGNUM_AMODE,
        dgnumlo_amode=DGNUMLO_AMODE,
        dgnumhi_amode=DGNUMHI_AMODE,
        rhcrystal_amode=RHCRYSTAL_AMODE,
        rhdeliques_amode=RHDELIQUES_AMODE,
        provenance=(
            "E3SMv1 via PNNL MAM_box_model, built -DMODAL_AERO_4MODE_MOM "
            "-DRAIN_EVAP_TO_COARSE_AERO -DNBC=1 -DNPOA=1 -DNSOA=1. "
            "modal_aero_data.F90:13-58,104-126; rad_constituents.F90:96-103,"
            "167-170,180-181. Index tables captured from an instrumented build "
            "(ADR-012)."
        ),
    ),
    make_active=True,
)

data = SimpleNamespace(Topology=Topology, E3SM_MAM4_MOM=E3SM_MAM4_MOM)  # scaffolding: stands for `from mam4_jax import data`


# ---- tests/test_topology_jit.py ----
def _alt() -> "data.Topology":     # type: ignore[name-defined]
    """A topology differing only in accum dgnum, so voltonumb differs ~8x."""
    return dataclasses.replace(
        data.E3SM_MAM4_MOM, name="alt_probe",
        dgnum_amode=(2.2e-07, 0.0260e-6, 2.000e-6, 0.050e-6),
    )


traces = {"n": 0}

@topology_jit
def kernel(x, topology):               # positional, not keyword-only
    traces["n"] += 1
    return x * jnp.asarray(topology.voltonumb_amode)[0]

try:  # scaffolding
    alt = _alt()
    a = float(kernel(jnp.float64(1.0), data.E3SM_MAM4_MOM))
    b = float(kernel(jnp.float64(1.0), data.E3SM_MAM4_MOM))
    c = float(kernel(jnp.float64(1.0), alt))
    print(f"a == b: {a == b}; traces: {traces['n']}; c {c:.6e} vs alt {float(alt.voltonumb_amode[0]):.6e}")  # scaffolding
    _report({"jit(kernel)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
