# source: https://github.com/NTT123/vietTTS/commit/1fcfb3b096b09f60126b0c6713050cbedacecc6d
# expect: trace-time-error at line 277
# runtime: ERROR ConcretizationTypeError
# why: regenerate_from_signal jits the haiku apply without marking the sample rate static, so sr is a tracer when MelFilter builds its filterbank with librosa.filters.mel, whose float(sr) raises ConcretizationTypeError during tracing.
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



import time
from functools import partial
from typing import Optional

import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np
from jax.numpy import ndarray


class librosa:  # scaffolding: librosa is not installed; the two functions used here, in numpy as librosa computes them
    class filters:  # scaffolding
        @staticmethod  # scaffolding
        def mel(sr, n_fft, n_mels, fmax=None):  # scaffolding: librosa.filters.mel (triangular filters, simplified), numpy throughout
            if fmax is None:  # scaffolding: librosa.filters.mel's first lines
                fmax = float(sr) / 2  # scaffolding
            fftfreqs = np.fft.rfftfreq(n=n_fft, d=1.0 / sr)  # scaffolding: as librosa.fft_frequencies
            mel_f = np.linspace(0.0, fmax, n_mels + 2)  # scaffolding: (librosa spaces these on the mel scale)
            fdiff = np.diff(mel_f)  # scaffolding
            ramps = np.subtract.outer(mel_f, fftfreqs)  # scaffolding
            weights = np.zeros((n_mels, int(1 + n_fft // 2)), dtype=np.float32)  # scaffolding
            for i in range(n_mels):  # scaffolding
                weights[i] = np.maximum(0, np.minimum(-ramps[i] / fdiff[i], ramps[i + 2] / fdiff[i + 1]))  # scaffolding
            return weights  # scaffolding

    @staticmethod  # scaffolding
    def mu_expand(x):  # scaffolding
        return np.asarray(x)  # scaffolding


def rearrange(y, pattern):  # scaffolding: einops is not installed; the one pattern MelFilter uses
    assert pattern == 'n s -> s n'  # scaffolding
    return jnp.transpose(y)  # scaffolding


# --- vietTTS/waveRNN/config.py (parent commit) ---
from pathlib import Path
from typing import NamedTuple


class TrainingConfig(NamedTuple):
  end_step: int
  learning_rate: float
  batch_size: int


class FLAGS:
  seq_len = 1024*3
  total_training_steps = 1_000_000
  gru_dim = 896
  embed_dim = 896
  _training_schedule = [
      TrainingConfig(1_000,     1e-6,   8),
      TrainingConfig(2_000,     1e-5,  16),
      TrainingConfig(3_000,     1e-4,  32),
      TrainingConfig(5_000,     3e-4,  64),
      TrainingConfig(50_000,    5e-4, 128),
      TrainingConfig(100_000,   3e-4, 128),
      TrainingConfig(200_000,   1e-4, 128),
      TrainingConfig(300_000,   5e-5, 128),
      TrainingConfig(1_000_000, 1e-5, 128),
  ]

  # training config
  ckpt_dir = Path('assets/reinfo/waveRNN')
  wav_data_dir = Path('/tmp/reinfo/raw/pp')
  sample_rate = 16_000
  variance_loss_scale = 0.1  # regularization term


FLAGS.gru_dim = 16  # scaffolding: small sizes for CPU (896 in the repo)
FLAGS.embed_dim = 16  # scaffolding


# --- vietTTS/tacotron/dsp.py (parent commit; rolling_window, batched_stft, MelFilter) ---
def rolling_window(a: ndarray, window: int, hop_length: int):
  """return a stack of overlap subsequence of an array.
  ``return jnp.stack( [a[0:10], a[5:15], a[10:20],...], axis=0)``
  Source: https://github.com/google/jax/issues/3171
  Args:
    a (ndarray): input array of shape `[L, ...]`
    window (int): length of each subarray (window).
    hop_length (int): distance between neighbouring windows.
  """

  idx = (jnp.arange(window)[:, None] + jnp.arange((len(a) - window) // hop_length + 1)[None, :] * hop_length)
  return a[idx]


@partial(jax.jit, static_argnums=[1, 2, 3, 4, 5, 6])
def batched_stft(y: ndarray,
                 n_fft: int,
                 hop_length: int,
                 win_length: int,
                 window: str,
                 center: bool = True,
                 pad_mode: str = 'reflect'):
  """Batched version of ``stft`` function.
  TN => FTN
  """

  assert len(y.shape) >= 2
  if window == 'hann':
    fft_window = jnp.hanning(win_length + 1)[:-1]
  else:
    raise RuntimeError(f'{window} window function is not supported!')
  pad_len = (n_fft - win_length) // 2
  if pad_len > 0:
    fft_window = jnp.pad(fft_window, (pad_len, pad_len), mode='constant')
    win_length = n_fft
  else:
    fft_window = fft_window
  if center:
    pad_width = ((n_fft // 2, n_fft // 2), ) + ((0, 0), ) * (len(y.shape) - 1)
    y = jnp.pad(y, pad_width, mode=pad_mode)

  # jax does not support ``np.lib.stride_tricks.as_strided`` function
  # see https://github.com/google/jax/issues/3171 for comments.
  y_frames = rolling_window(y, n_fft, hop_length)
  fft_window = jnp.reshape(fft_window, (-1, ) + (1, ) * (len(y.shape)))
  y_frames = y_frames * fft_window
  stft_matrix = jnp.fft.fft(y_frames, axis=0)
  d = int(1 + n_fft // 2)
  return stft_matrix[:d]


class MelFilter:
  """Convert waveform to mel spectrogram."""

  def __init__(self, sample_rate: int, n_fft: int, n_mels: int):
    self.melfb = jax.device_put(librosa.filters.mel(sr=sample_rate, n_fft=n_fft, n_mels=n_mels))
    self.n_fft = n_fft

  def __call__(self, y: ndarray) -> ndarray:
    hop_length = self.n_fft // 4
    window_length = self.n_fft
    assert len(y.shape) == 2
    y = rearrange(y, 'n s -> s n')
    p = (self.n_fft - hop_length) // 2
    y = jnp.pad(y, ((p, p), (0, 0)), mode='reflect')
    spec = batched_stft(y, self.n_fft, hop_length, window_length, 'hann', False, 'reflect')
    mag = jnp.abs(spec)
    mel = jnp.einsum('ms,sfn->nfm', self.melfb, mag)
    cond = jnp.log(mel + 1e-5)
    return cond


# --- vietTTS/waveRNN/model.py (parent commit) ---


class UpsampleNetwork(hk.Module):
  def __init__(self, num_output_channels, is_training=True):
    super().__init__()
    self.input_conv = hk.Conv1D(512, 3, padding='VALID')
    self.input_bn = hk.BatchNorm(True, True, 0.99)
    self.dilated_conv_1 = hk.Conv1D(512, 2, 1, rate=2, padding='VALID')
    self.dilated_bn_1 = hk.BatchNorm(True, True, 0.99)
    self.dilated_conv_2 = hk.Conv1D(512, 2, 1, rate=4, padding='VALID')
    self.dilated_bn_2 = hk.BatchNorm(True, True, 0.99)

    self.upsample_conv_1 = hk.Conv1DTranspose(512, kernel_shape=1, stride=2, padding='SAME')
    self.upsample_bn_1 = hk.BatchNorm(True, True, 0.99)
    self.upsample_conv_2 = hk.Conv1DTranspose(512, kernel_shape=1, stride=2, padding='SAME')
    self.upsample_bn_2 = hk.BatchNorm(True, True, 0.99)
    self.upsample_conv_3 = hk.Conv1DTranspose(num_output_channels, kernel_shape=1, stride=4, padding='SAME')
    self.upsample_bn_3 = hk.BatchNorm(True, True, 0.99)
    self.is_training = is_training

  def __call__(self, mel):
    x = jax.nn.relu(self.input_bn(self.input_conv(mel), is_training=self.is_training))
    res_1 = jax.nn.relu(self.dilated_bn_1(self.dilated_conv_1(x), is_training=self.is_training))
    x = x[:, 1:-1] + res_1
    res_2 = jax.nn.relu(self.dilated_bn_2(self.dilated_conv_2(x), is_training=self.is_training))
    x = x[:, 2:-2] + res_2

    x = jax.nn.relu(self.upsample_bn_1(self.upsample_conv_1(x), is_training=self.is_training))
    x = jax.nn.relu(self.upsample_bn_2(self.upsample_conv_2(x), is_training=self.is_training))
    x = jax.nn.relu(self.upsample_bn_3(self.upsample_conv_3(x), is_training=self.is_training))

    # tile x16
    N, L, D = x.shape
    x = jnp.tile(x[:, :, None, :], (1, 1, 16, 1))
    x = jnp.reshape(x, (N, -1, D))

    return x


class WaveRNN(hk.Module):
  def __init__(self, is_training=True):
    super().__init__()
    self.gru = hk.GRU(FLAGS.gru_dim)
    self.input_embed = hk.Embed(256, FLAGS.embed_dim)
    self.o1 = hk.Linear(FLAGS.gru_dim)
    self.o2 = hk.Linear(256)
    self.upsample = UpsampleNetwork(num_output_channels=FLAGS.embed_dim, is_training=is_training)
    self.is_training = is_training

  def __call__(self, x, mel):
    x = self.input_embed(x) + self.upsample(mel)
    x, hx = hk.dynamic_unroll(
        self.gru,
        x,
        self.gru.initial_state(x.shape[0]),
        time_major=False
    )
    logits = self.o2(jax.nn.relu(self.o1(x)))
    logpr = jax.nn.log_softmax(logits)
    return logpr


# --- vietTTS/waveRNN/utils.py (parent commit; regenerate_from_signal and gen_test_sample) ---
@hk.without_apply_rng
@hk.transform_with_state
def regenerate_from_signal_(y, rng, sr):
  melfilter = MelFilter(sr, 1024, 80)
  pad_left = 1024
  pad_right = 1024
  y = y.astype(jnp.float32) / (2**15)  # rescale
  y = jnp.pad(y, ((0, 0), (pad_left, pad_right)))
  mel = melfilter(y)

  net = WaveRNN(is_training=False)
  x = jnp.array([128])
  hx = net.gru.initial_state(1)
  out = []

  mel = net.upsample(mel)

  def loop(mel, prev_state):
    x, rng, hx = prev_state
    rng1, rng = jax.random.split(rng)
    x = net.input_embed(x) + mel
    x, hx = net.gru(x, hx)
    x = net.o2(jax.nn.relu(net.o1(x)))
    x = jax.nn.log_softmax(x, axis=-1)
    pr = jnp.exp(x)
    v = jnp.linspace(0, 255, 256)[None, None, :]
    mean = jnp.sum(pr * v, axis=-1, keepdims=True)
    variance = jnp.sum(jnp.square(v - mean) * pr, axis=-1, keepdims=True)
    reg = jnp.log(1 + jnp.sqrt(variance))
    x = jax.random.categorical(rng1, x)
    return (x, reg, pr), (x, rng, hx)

  h0 = (x, rng, hx)
  (out, reg, pr), _ = hk.dynamic_unroll(loop, mel, h0, time_major=False)
  return (out, reg, pr)


regenerate_from_signal = jax.jit(regenerate_from_signal_.apply)


def gen_test_sample(params, aux, rng, test_clip, step=0, sr=16000):
  t1 = time.perf_counter()
  synthesized_clip, reg, pr = regenerate_from_signal(params, aux, test_clip, rng, sr)[0]
  synthesized_clip = jax.device_get(synthesized_clip)
  synthesized_clip = librosa.mu_expand(synthesized_clip[0] - 128)
  t2 = time.perf_counter()
  delta = t2 - t1
  l = len(synthesized_clip) / sr
  print(f'  take {delta:.3f} seconds to generate {l:.3f} seconds, RTF = {delta / l:.3f}')
  # (plotting the predictive distribution and writing the wav files are cut here)


rng = jax.random.PRNGKey(0)  # scaffolding
test_clip = (np.sin(np.arange(2048) / 7.0) * 8000).astype(np.int16)[None, :]  # scaffolding: trainer.py reads a test wav with soundfile; a short int16 clip
_net = hk.transform_with_state(lambda x, m: WaveRNN()(x, m))  # scaffolding: trainer.py's `net`, whose trained params/aux gen_test_sample uses
params, aux = _net.init(rng, jnp.zeros((1, 256), jnp.int32), jnp.zeros((1, 9, 80)))  # scaffolding: 9 mel frames -> (9 - 8) * 256 samples
try:  # scaffolding
    for step in range(2):  # scaffolding: trainer.py calls gen_test_sample every so many training steps
        gen_test_sample(params, aux, rng, test_clip=test_clip, step=step, sr=16000)  # scaffolding: trainer.py's call
    _report({"jit(apply_fn)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
