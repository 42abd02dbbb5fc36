# source: https://github.com/google-research/self-organising-systems/blob/3d5547ca48b60ecac459834e2c05c9ff5df87991/notebooks/particle_lenia.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 60
# why: Lenia.step is a @jax.jit method of a namedtuple subclass, so `p` (self) is an ordinary pytree argument (R, peaks, mu, sigma traced), not a static one; calling it alternately on two different creatures' parameter sets (p1, p2) reuses one compiled executable.

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
#@title (imports & utils)
import io
import base64
import time
from functools import partial
from typing import NamedTuple
from collections import namedtuple
import numpy as np
import jax
import jax.numpy as jp

_CALLS = [0]  # scaffolding

# based on Bert Chan's original Lenia implementation
# https://colab.research.google.com/github/Chakazul/Lenia/blob/master/Jupyter/Lenia.ipynb

class Lenia(namedtuple('Lenia', 'R, peaks, mu, sigma')):
  def rescale(p, x, n=4):
    x = jp.repeat(jp.repeat(jp.array(x), n, axis=0), n, axis=1)
    p = p._replace(R = p.R * n)
    return p, x

  def kernel_shell(p, r):
    def kernel_core(r):
      rm = jp.minimum(r, 1)
      return (4 * rm * (1-rm))**4
    k = len(p.peaks)
    kr = k * r
    peak = p.peaks[jp.minimum(jp.floor(kr).astype(int), k-1)]
    return (r<1) * kernel_core(kr % 1) * peak

  @jax.jit
  def step(p, x, dt=0.05):
    SIZE = x.shape[0]
    MID = SIZE // 2
    I = jp.array([jp.arange(SIZE),]*SIZE)
    X = (I-MID) / p.R
    Y = X.T
    D = jp.sqrt(X**2 + Y**2)

    kernel = p.kernel_shell(D)
    kernel_FFT = jp.fft.fft2(kernel / jp.sum(kernel))
    x_FFT = jp.fft.fft2(x)
    potential = jp.roll(jp.real(jp.fft.ifft2(kernel_FFT * x_FFT)), MID, (0, 1))
    delta = jp.maximum(0, 1 - (potential - p.mu)**2 / (p.sigma**2 * 9) )**4 * 2 - 1
    return jp.maximum(0, jp.minimum(1, x + delta * dt))

  # (render_world cut: scaffolding)

  @staticmethod
  def get_creatures():
    p1 = Lenia(R=13, peaks=jp.array([1]), mu=0.15, sigma=0.014)
    p2 = Lenia(R=13, peaks=jp.array([1]), mu=0.156, sigma=0.0224)
    c1 = jp.array([[0,0,0,0,0,0,0.1,0.14,0.1,0,0,0.03,0.03,0,0,0.3,0,0,0,0],[0,0,0,0,0,0.08,0.24,0.3,0.3,0.18,0.14,0.15,0.16,0.15,0.09,0.2,0,0,0,0],[0,0,0,0,0,0.15,0.34,0.44,0.46,0.38,0.18,0.14,0.11,0.13,0.19,0.18,0.45,0,0,0],[0,0,0,0,0.06,0.13,0.39,0.5,0.5,0.37,0.06,0,0,0,0.02,0.16,0.68,0,0,0],[0,0,0,0.11,0.17,0.17,0.33,0.4,0.38,0.28,0.14,0,0,0,0,0,0.18,0.42,0,0],[0,0,0.09,0.18,0.13,0.06,0.08,0.26,0.32,0.32,0.27,0,0,0,0,0,0,0.82,0,0],[0.27,0,0.16,0.12,0,0,0,0.25,0.38,0.44,0.45,0.34,0,0,0,0,0,0.22,0.17,0],[0,0.07,0.2,0.02,0,0,0,0.31,0.48,0.57,0.6,0.57,0,0,0,0,0,0,0.49,0],[0,0.59,0.19,0,0,0,0,0.2,0.57,0.69,0.76,0.76,0.49,0,0,0,0,0,0.36,0],[0,0.58,0.19,0,0,0,0,0,0.67,0.83,0.9,0.92,0.87,0.12,0,0,0,0,0.22,0.07],[0,0,0.46,0,0,0,0,0,0.7,0.93,1,1,1,0.61,0,0,0,0,0.18,0.11],[0,0,0.82,0,0,0,0,0,0.47,1,1,0.98,1,0.96,0.27,0,0,0,0.19,0.1],[0,0,0.46,0,0,0,0,0,0.25,1,1,0.84,0.92,0.97,0.54,0.14,0.04,0.1,0.21,0.05],[0,0,0,0.4,0,0,0,0,0.09,0.8,1,0.82,0.8,0.85,0.63,0.31,0.18,0.19,0.2,0.01],[0,0,0,0.36,0.1,0,0,0,0.05,0.54,0.86,0.79,0.74,0.72,0.6,0.39,0.28,0.24,0.13,0],[0,0,0,0.01,0.3,0.07,0,0,0.08,0.36,0.64,0.7,0.64,0.6,0.51,0.39,0.29,0.19,0.04,0],[0,0,0,0,0.1,0.24,0.14,0.1,0.15,0.29,0.45,0.53,0.52,0.46,0.4,0.31,0.21,0.08,0,0],[0,0,0,0,0,0.08,0.21,0.21,0.22,0.29,0.36,0.39,0.37,0.33,0.26,0.18,0.09,0,0,0],[0,0,0,0,0,0,0.03,0.13,0.19,0.22,0.24,0.24,0.23,0.18,0.13,0.05,0,0,0,0],[0,0,0,0,0,0,0,0,0.02,0.06,0.08,0.09,0.07,0.05,0.01,0,0,0,0,0]])
    c2 = jp.array([[0,0,0,0,0,0,0,0,0.003978,0.016492,0.004714,0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0.045386,0.351517,0.417829,0.367137,0.37766,0.426948,0.431058,0.282864,0.081247,0,0,0,0,0,0],[0,0,0,0,0.325473,0.450995,0.121737,0,0,0,0.003113,0.224278,0.47101,0.456459,0.247231,0.071609,0.013126,0,0,0],[0,0,0,0.386337,0.454077,0,0,0,0,0,0,0,0.27848,0.524466,0.464281,0.242651,0.096721,0.038476,0,0],[0,0,0.258817,0.583802,0.150994,0,0,0,0,0,0,0,0.226639,0.548329,0.550422,0.334764,0.153108,0.087049,0.042872,0],[0,0.008021,0.502406,0.524042,0.059531,0,0,0,0,0,0,0.033946,0.378866,0.615467,0.577527,0.357306,0.152872,0.090425,0.058275,0.023345],[0,0.179756,0.596317,0.533619,0.162612,0,0,0,0,0.015021,0.107673,0.325125,0.594765,0.682434,0.594688,0.381172,0.152078,0.073544,0.054424,0.030592],[0,0.266078,0.614339,0.605474,0.379255,0.195176,0.16516,0.179148,0.204498,0.299535,0.760743,1,1,1,1,0.490799,0.237826,0.069989,0.043549,0.022165],[0,0.333031,0.64057,0.686886,0.60698,0.509866,0.450525,0.389552,0.434978,0.859115,0.94097,1,1,1,1,1,0.747866,0.118317,0.037712,0.006271],[0,0.417887,0.6856,0.805342,0.824229,0.771553,0.69251,0.614328,0.651704,0.843665,0.910114,1,1,0.81765,0.703404,0.858469,1,0.613961,0.035691,0],[0.04674,0.526827,0.787644,0.895984,0.734214,0.661746,0.670024,0.646184,0.69904,0.723163,0.682438,0.618645,0.589858,0.374017,0.30658,0.404027,0.746403,0.852551,0.031459,0],[0.130727,0.658494,0.899652,0.508352,0.065875,0.009245,0.232702,0.419661,0.461988,0.470213,0.390198,0.007773,0,0.010182,0.080666,0.17231,0.44588,0.819878,0.034815,0],[0.198532,0.810417,0.63725,0.031385,0,0,0,0,0.315842,0.319248,0.321024,0,0,0,0,0.021482,0.27315,0.747039,0,0],[0.217619,0.968727,0.104843,0,0,0,0,0,0.152033,0.158413,0.114036,0,0,0,0,0,0.224751,0.647423,0,0],[0.138866,1,0.093672,0,0,0,0,0,0.000052,0.015966,0,0,0,0,0,0,0.281471,0.455713,0,0],[0,1,0.145606,0.005319,0,0,0,0,0,0,0,0,0,0,0,0.016878,0.381439,0.173336,0,0],[0,0.97421,0.262735,0.096478,0,0,0,0,0,0,0,0,0,0,0.013827,0.217967,0.287352,0,0,0],[0,0.593133,0.2981,0.251901,0.167326,0.088798,0.041468,0.013086,0.002207,0.009404,0.032743,0.061718,0.102995,0.1595,0.24721,0.233961,0.002389,0,0,0],[0,0,0.610166,0.15545,0.200204,0.228209,0.241863,0.243451,0.270572,0.446258,0.376504,0.174319,0.154149,0.12061,0.074709,0,0,0,0,0],[0,0,0.354313,0.32245,0,0,0,0.151173,0.479517,0.650744,0.392183,0,0,0,0,0,0,0,0,0],[0,0,0,0.329339,0.328926,0.176186,0.198788,0.335721,0.534118,0.549606,0.361315,0,0,0,0,0,0,0,0,0],[0,0,0,0,0.090407,0.217992,0.190592,0.174636,0.222482,0.375871,0.265924,0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0,0.050256,0.235176,0,0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0,0,0,0.180145,0.132616,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0,0,0,0,0,0.092581,0.188519,0.118256,0,0,0,0]])
    p1, c1 = p1.rescale(c1, n=6)
    p2, c2 = p2.rescale(c2, n=6)
    return (p1, c1), (p2, c2)

def lenia_universes_diagram(SIZE=1<<8):
  (p1, c1), (p2, c2) = Lenia.get_creatures()
  MID = int(SIZE / 2)
  titles = dict(title_1="Glider's World\n$\mu=0.15, \sigma=0.014$",
                title_2="Rotator's World\n$\mu=0.156, \sigma=0.0224$")

  x_1 = x_2 = jp.zeros((SIZE, SIZE))

  def center(x):
    CoM = ((jp.mgrid[0:SIZE:1, 0:SIZE:1] * x).sum(axis=(1,2))/jp.sum(x)).astype(jp.int32)
    shift = jp.array([SIZE//2, SIZE//2]) - CoM
    return jp.roll(x, shift, axis=(0, 1))

  # paste creature 1
  cs = c1.shape
  x_1 = x_1.at[SIZE//2:SIZE//2 + cs[0], SIZE//2 - cs[1]:SIZE//2].set(c1)
  x_1 = center(x_1)

  # paste creature 2
  cs = c2.shape
  x_2 = x_2.at[(SIZE - cs[0])//2:(SIZE + cs[0])//2, (SIZE - cs[1])//2:(SIZE + cs[1])//2].set(c2)

  if True:  # scaffolding: `with VideoWriter(fps=15) as vid:`
    for i in range(5):  # scaffolding: 100 in the notebook
      x = jp.concatenate((x_1, x_2), axis=1)
      pass  # scaffolding: vid(Lenia.render_world(...)) cut
      for _ in range(2):
        x_1 = center(p1.step(x_1))
        x_2 = p2.step(x_2)
        _CALLS[0] += 2  # scaffolding
    for i in range(3):  # scaffolding: 60 in the notebook
      # move seperator
      scale = 1 - i/60
      pass  # scaffolding: vid(Lenia.render_world(...)) cut
    for i in range(5):  # scaffolding: 100 in the notebook
      x = jp.concatenate((x_1, x_2), axis=1)
      pass  # scaffolding: vid(Lenia.render_world(...)) cut
      for _ in range(2):
        x_1 = center(p2.step(x_1))
        x_2 = p2.step(x_2)
        _CALLS[0] += 2  # scaffolding
    for i in range(3):  # scaffolding: 60 in the notebook
      # move seperator
      scale = i/60
      pass  # scaffolding: vid(Lenia.render_world(...)) cut
    for i in range(5):  # scaffolding: 100 in the notebook
      x = jp.concatenate((x_1, x_2), axis=1)
      pass  # scaffolding: vid(Lenia.render_world(...)) cut
      for _ in range(2):
        x_1 = center(p1.step(x_1))
        x_2 = p1.step(x_2)
        _CALLS[0] += 2  # scaffolding
lenia_universes_diagram()
_report({"jit(step)"}, _CALLS[0])  # scaffolding
