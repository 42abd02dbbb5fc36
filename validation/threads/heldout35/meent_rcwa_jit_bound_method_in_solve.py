# source: https://github.com/kc-ml2/meent/commit/8040efada76c6cd3d7be13d5d6da27d4eb447ad0
# expect: jit-in-loop-or-body at line 103
# runtime: COMPILES 4 CALLS 4
# why: RCWAJax.solve wraps the bound method self.solve_1d in a fresh jax.jit on every call; a bound method is a new object each time, so the jit cache never hits and each solve of the fill-factor sweep traces and compiles again.

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


# --- end harness ---
import time
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


class _BaseRCWA:  # scaffolding: stand-in for meent.on_jax._base._BaseRCWA (attributes + a small solve_1d with the same signature)
    def __init__(self, grating_type, n_I=1., n_II=1., theta=0., phi=0., psi=0., fourier_order=10,
                 period=(100,), wavelength=900, pol=0, patterns=None, ucell=None, ucell_materials=None,
                 thickness=None, algo='TMM', device='cpu', type_complex=np.complex128):
        self.grating_type, self.n_I, self.n_II = grating_type, n_I, n_II
        self.theta, self.phi, self.psi = theta, phi, psi
        self.fourier_order, self.period, self.wavelength = fourier_order, period, wavelength
        self.pol, self.thickness, self.type_complex = pol, thickness, type_complex

    def solve_1d(self, wl, E_conv_all, o_E_conv_all):  # scaffolding: simplified, not meent's transfer-matrix solver
        kx = self.kx_vector
        n = kx.shape[0]
        rhs = jnp.zeros(n, dtype=E_conv_all.dtype).at[n // 2].set(1.0)
        A = E_conv_all[0] - jnp.diag(kx ** 2) / (2 * jnp.pi / wl) ** 2
        X = jnp.linalg.solve(A, rhs)
        de_ri = jnp.abs(X) ** 2 / jnp.sum(jnp.abs(X) ** 2)
        de_ti = jnp.abs(o_E_conv_all[0] @ X) ** 2
        return de_ri, de_ti, [A], jnp.eye(n, dtype=A.dtype)


class RCWAJax(_BaseRCWA):
    def __init__(self, mode=0, grating_type=0, n_I=1., n_II=1., theta=0, phi=0, psi=0, fourier_order=40, period=(100,),
                 wavelength=jnp.linspace(900, 900, 1), pol=0, patterns=None, ucell=None, ucell_materials=None,
                 thickness=None, algo='TMM',
                 device='cpu', type_complex=np.complex128):

        super().__init__(grating_type, n_I, n_II, theta, phi, psi, fourier_order, period, wavelength, pol, patterns, ucell, ucell_materials,
                         thickness, algo, device, type_complex)
        self.mode = mode
        self.spectrum_r, self.spectrum_t = None, None
        # self.init_spectrum_array()
        # self.mat_table = read_material_table()  (scaffolding: material table not needed)
        self.layer_info_list = []

    def solve(self, wavelength, e_conv_all, o_e_conv_all):
        # TODO: perturbation
        self.perturbation = 1E-20

        # TODO: move to _base?
        def get_kx_vector(perturbation=self.perturbation):

            k0 = 2 * jnp.pi / self.wavelength
            fourier_indices = jnp.arange(-self.fourier_order, self.fourier_order + 1)
            if self.grating_type == 0:
                kx_vector = k0 * (self.n_I * jnp.sin(self.theta) - fourier_indices * (self.wavelength / self.period[0])
                                  ).astype(self.type_complex)
            else:
                kx_vector = k0 * (self.n_I * jnp.sin(self.theta) * jnp.cos(self.phi) - fourier_indices * (self.wavelength / self.period[0])
                                  ).astype(self.type_complex)

            idx = jnp.nonzero(kx_vector == 0)[0]
            if len(idx):
                # TODO: need imaginary part?
                # TODO: make imaginary part sign consistent
                kx_vector = kx_vector.at[idx].set(perturbation)
                print('varphi divide by 0: adding perturbation')

            self.kx_vector = kx_vector
            return kx_vector

        # TODO: handle uniform layer

        t0=time.time()
        get_kx_vector()

        if self.grating_type == 0:
            solve_1d = jax.jit(self.solve_1d)
            de_ri, de_ti, layer_info_list, T1 = solve_1d(wavelength, e_conv_all, o_e_conv_all)
        elif self.grating_type == 1:
            solve_1d_conical = jax.jit(self.solve_1d_conical)
            de_ri, de_ti, layer_info_list, T1 = solve_1d_conical(wavelength, e_conv_all, o_e_conv_all)

        elif self.grating_type == 2:
            solve_2d = jax.jit(self.solve_2d)
            de_ri, de_ti, layer_info_list, T1 = solve_2d(wavelength, e_conv_all, o_e_conv_all)
        else:
            raise ValueError

        self.layer_info_list = layer_info_list
        self.T1 = T1

        print('solve time', time.time() - t0)

        return de_ri.real, de_ti.real


def conv_mat(eps, fourier_order):  # scaffolding: Toeplitz Fourier matrix of a 1D binary grating
    n = 2 * fourier_order + 1
    coef = jnp.fft.fftshift(jnp.fft.fft(eps) / eps.shape[0])
    center = eps.shape[0] // 2
    idx = jnp.arange(n)[:, None] - jnp.arange(n)[None, :]
    return coef[center + idx][None]


solver = RCWAJax(grating_type=0, fourier_order=5, period=(1000,), wavelength=900., theta=0.1, type_complex=jnp.complex64)  # scaffolding
calls = 0  # scaffolding
for fill in (0.3, 0.4, 0.5, 0.6):  # scaffolding: a sweep over grating fill factors, one solve each
    ucell = jnp.where(jnp.arange(64) < fill * 64, 3.48 ** 2, 1.0).astype(jnp.complex64)  # scaffolding
    de_ri, de_ti = solver.solve(solver.wavelength, conv_mat(ucell, 5), conv_mat(1 / ucell, 5))  # scaffolding
    calls += 1  # scaffolding
_report({"jit(solve_1d)"}, calls)  # scaffolding
