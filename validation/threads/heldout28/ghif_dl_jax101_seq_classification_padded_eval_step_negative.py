# source: https://github.com/ghif/dl-jax101/blob/13740c2dcf6813f351c62ceb21bfbfd589b9e85e/4-rnn/1-seq_classification.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 62
# why: the sequences have random lengths (7 or 8 symbols on EASY) but encode_x_batch pads every batch to maxlen=length_range[1], and the generator always yields full batches of 32, so the module-level @nnx.jit eval_step compiles once for 62 calls; train_step is left unjitted.
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


import sys  # scaffolding


def save_checkpoint(model, epoch, filedir):  # scaffolding: model_utils.save_checkpoint writes safetensors (not installed); no-op
    pass  # scaffolding


# ---- sequential_tasks.py ----
import numpy as np
# import six  # scaffolding: not installed; six.string_types is str on Python 3
six = __import__('types').SimpleNamespace(string_types=(str,))  # scaffolding

def pad_sequences(sequences, maxlen=None, dtype='int32',
                  padding='pre', truncating='pre', value=0.):
    if not hasattr(sequences, '__len__'):
        raise ValueError('`sequences` must be iterable.')
    lengths = []
    for x in sequences:
        if not hasattr(x, '__len__'):
            raise ValueError('`sequences` must be a list of iterables. '
                             'Found non-iterable: ' + str(x))
        lengths.append(len(x))

    num_samples = len(sequences)
    if maxlen is None:
        maxlen = np.max(lengths)

    # take the sample shape from the first non empty sequence
    # checking for consistency in the main loop below.
    sample_shape = tuple()
    for s in sequences:
        if len(s) > 0:
            sample_shape = np.asarray(s).shape[1:]
            break

    is_dtype_str = np.issubdtype(dtype, np.str_)
    if isinstance(value, six.string_types) and dtype != object and not is_dtype_str:
        raise ValueError("`dtype` {} is not compatible with `value`'s type: {}\n"
                         "You should set `dtype=object` for variable length strings."
                         .format(dtype, type(value)))

    x = np.full((num_samples, maxlen) + sample_shape, value, dtype=dtype)
    for idx, s in enumerate(sequences):
        if not len(s):
            continue  # empty list/array was found
        if truncating == 'pre':
            trunc = s[-maxlen:]
        elif truncating == 'post':
            trunc = s[:maxlen]
        else:
            raise ValueError('Truncating type "%s" '
                             'not understood' % truncating)

        # check `trunc` has expected shape
        trunc = np.asarray(trunc, dtype=dtype)
        if trunc.shape[1:] != sample_shape:
            raise ValueError('Shape of sample %s of sequence at position %s '
                             'is different from expected shape %s' %
                             (trunc.shape[1:], idx, sample_shape))

        if padding == 'post':
            x[idx, :len(trunc)] = trunc
        elif padding == 'pre':
            x[idx, -len(trunc):] = trunc
        else:
            raise ValueError('Padding type "%s" not understood' % padding)
    return x

def to_categorical(y, num_classes=None, dtype='float32'):
    y = np.array(y, dtype='int')
    input_shape = y.shape
    if input_shape and input_shape[-1] == 1 and len(input_shape) > 1:
        input_shape = tuple(input_shape[:-1])
    y = y.ravel()
    if not num_classes:
        num_classes = np.max(y) + 1
    n = y.shape[0]
    categorical = np.zeros((n, num_classes), dtype=dtype)
    categorical[np.arange(n), y] = 1
    output_shape = input_shape + (num_classes,)
    categorical = np.reshape(categorical, output_shape)
    return categorical

# class EchoData(): ...  (cut: not used by this notebook)


class TemporalOrderExp6aSequence():
    """
    From Hochreiter&Schmidhuber(1997):

        The goal is to classify sequences. Elements and targets are represented locally
        (input vectors with only one non-zero bit). The sequence starts with an B, ends
        with a E (the "trigger symbol") and otherwise consists of randomly chosen symbols
        from the set {a, b, c, d} except for two elements at positions t1 and t2 that are
        either X or Y . The sequence length is randomly chosen between 100 and 110, t1 is
        randomly chosen between 10 and 20, and t2 is randomly chosen between 50 and 60.
        There are 4 sequence classes Q, R, S, U which depend on the temporal order of X and Y.
        The rules are:
            X, X -> Q,
            X, Y -> R,
            Y , X -> S,
            Y , Y -> U.

    """

    def __init__(self, length_range=(100, 111), t1_range=(10, 21), t2_range=(50, 61),
                 batch_size=32, seed=None):

        self.classes = ['Q', 'R', 'S', 'U']
        self.n_classes = len(self.classes)

        self.relevant_symbols = ['X', 'Y']
        self.distraction_symbols = ['a', 'b', 'c', 'd']
        self.start_symbol = 'B'
        self.end_symbol = 'E'

        self.length_range = length_range
        self.t1_range = t1_range
        self.t2_range = t2_range
        self.batch_size = batch_size

        if seed is not None:
            np.random.seed(seed)

        all_symbols = self.relevant_symbols + self.distraction_symbols + \
                      [self.start_symbol] + [self.end_symbol]
        self.n_symbols = len(all_symbols)
        self.s_to_idx = {s: n for n, s in enumerate(all_symbols)}
        self.idx_to_s = {n: s for n, s in enumerate(all_symbols)}

        self.c_to_idx = {c: n for n, c in enumerate(self.classes)}
        self.idx_to_c = {n: c for n, c in enumerate(self.classes)}

    def generate_pair(self):
        length = np.random.randint(self.length_range[0], self.length_range[1])
        t1 = np.random.randint(self.t1_range[0], self.t1_range[1])
        t2 = np.random.randint(self.t2_range[0], self.t2_range[1])

        x = np.random.choice(self.distraction_symbols, length)
        x[0] = self.start_symbol
        x[-1] = self.end_symbol

        y = np.random.choice(self.classes)
        if y == 'Q':
            x[t1], x[t2] = self.relevant_symbols[0], self.relevant_symbols[0]
        elif y == 'R':
            x[t1], x[t2] = self.relevant_symbols[0], self.relevant_symbols[1]
        elif y == 'S':
            x[t1], x[t2] = self.relevant_symbols[1], self.relevant_symbols[0]
        else:
            x[t1], x[t2] = self.relevant_symbols[1], self.relevant_symbols[1]

        return ''.join(x), y

    # encoding/decoding single instance version

    def encode_x(self, x):
        idx_x = [self.s_to_idx[s] for s in x]
        return to_categorical(idx_x, num_classes=self.n_symbols)

    def encode_y(self, y):
        idx_y = self.c_to_idx[y]
        return to_categorical(idx_y, num_classes=self.n_classes)

    def decode_x(self, x):
        x = x[np.sum(x, axis=1) > 0]    # remove padding
        return ''.join([self.idx_to_s[pos] for pos in np.argmax(x, axis=1)])

    def decode_y(self, y):
        return self.idx_to_c[np.argmax(y)]

    # encoding/decoding batch versions

    def encode_x_batch(self, x_batch):
        return pad_sequences([self.encode_x(x) for x in x_batch],
                             maxlen=self.length_range[1])

    def encode_y_batch(self, y_batch):
        return np.array([self.encode_y(y) for y in y_batch])

    def decode_x_batch(self, x_batch):
        return [self.decode_x(x) for x in x_batch]

    def decode_y_batch(self, y_batch):
        return [self.idx_to_c[pos] for pos in np.argmax(y_batch, axis=1)]

    def __len__(self):
        """ Let's assume 1000 sequences as the size of data. """
        return int(1000. / self.batch_size)

    def __getitem__(self, index):
        batch_x, batch_y = [], []
        for _ in range(self.batch_size):
            x, y = self.generate_pair()
            batch_x.append(x)
            batch_y.append(y)
        return self.encode_x_batch(batch_x), self.encode_y_batch(batch_y)

    class DifficultyLevel:
        """ On HARD, settings are identical to the original settings from the '97 paper."""
        EASY, NORMAL, MODERATE, HARD, NIGHTMARE = range(5)

    @staticmethod
    def get_predefined_generator(difficulty_level, batch_size=32, seed=8382):
        EASY = TemporalOrderExp6aSequence.DifficultyLevel.EASY
        NORMAL = TemporalOrderExp6aSequence.DifficultyLevel.NORMAL
        MODERATE = TemporalOrderExp6aSequence.DifficultyLevel.MODERATE
        HARD = TemporalOrderExp6aSequence.DifficultyLevel.HARD

        if difficulty_level == EASY:
            length_range = (7, 9)
            t1_range = (1, 3)
            t2_range = (4, 6)
        elif difficulty_level == NORMAL:
            length_range = (30, 41)
            t1_range = (2, 6)
            t2_range = (20, 28)
        elif difficulty_level == MODERATE:
            length_range = (60, 81)
            t1_range = (10, 21)
            t2_range = (45, 55)
        elif difficulty_level == HARD:
            length_range = (100, 111)
            t1_range = (10, 21)
            t2_range = (50, 61)
        else:
            length_range = (300, 501)
            t1_range = (10, 81)
            t2_range = (250, 291)
        return TemporalOrderExp6aSequence(length_range, t1_range, t2_range,
                                          batch_size, seed)
    

# cell 5
import sys, os
from time import process_time
import numpy as np
import json
from tqdm.notebook import tqdm
from tqdm import tqdm  # scaffolding: plain tqdm outside Jupyter

import jax
import jax.numpy as jnp
from flax import nnx
import optax

# Menambahkan parent directory ke path agar bisa import modul lokal
sys.path.append(os.path.abspath(os.path.join(os.getcwd(), os.pardir)))
# from sequential_tasks import TemporalOrderExp6aSequence as QRSU  # scaffolding: inlined above
QRSU = TemporalOrderExp6aSequence  # scaffolding
# from model_utils import save_checkpoint, load_checkpoint  # scaffolding: stood in above
# cell 7
max_epochs = 100
max_epochs = 2  # scaffolding: 2 epochs instead of 100
model_type = "lstm" # atau "rnn"
difficulty = "easy"
batch_size = 32

difficulty_levels = {
    "easy": QRSU.DifficultyLevel.EASY,
    "normal": QRSU.DifficultyLevel.NORMAL,
    "moderate": QRSU.DifficultyLevel.MODERATE,
    "hard": QRSU.DifficultyLevel.HARD,
    "nightmare": QRSU.DifficultyLevel.NIGHTMARE
}

difficulty_level = difficulty_levels.get(difficulty, QRSU.DifficultyLevel.EASY)

# Setup generator data
train_data_gen = QRSU.get_predefined_generator(difficulty_level, batch_size)
test_data_gen = QRSU.get_predefined_generator(difficulty_level, batch_size)
MODEL_DIR = "../models"
MODEL_DIR = "/tmp/h28_pages_models"  # scaffolding: scratch folder

checkpoint_dir = f"{MODEL_DIR}/seq_classification"
if not os.path.exists(checkpoint_dir):
    os.makedirs(checkpoint_dir)
# cell 9
class SimpleRNN(nnx.Module):
    def __init__(self, input_size, hidden_size, output_size, rngs: nnx.Rngs):
        self.rnn_cell = nnx.SimpleCell(input_size, hidden_size, rngs=rngs)
        self.linear = nnx.Linear(hidden_size, output_size, rngs=rngs)
        self.hidden_size = hidden_size
    
    def __call__(self, x):
        batch_size, seq_len, _ = x.shape
        h = jnp.zeros((batch_size, self.hidden_size))
        h_list = []
        for t in range(seq_len):
            h, h_out = self.rnn_cell(h, x[:, t, :])
            h = nnx.relu(h)
            h_list.append(h)
        h_stacked = jnp.stack(h_list, axis=1)
        return self.linear(h_stacked)

class SimpleLSTM(nnx.Module):
    def __init__(self, input_size, hidden_size, output_size, rngs: nnx.Rngs):
        self.lstm_cell = nnx.LSTMCell(input_size, hidden_size, rngs=rngs)
        self.linear = nnx.Linear(hidden_size, output_size, rngs=rngs)
        self.hidden_size = hidden_size
    
    def __call__(self, x):
        batch_size, seq_len, _ = x.shape
        h = jnp.zeros((batch_size, self.hidden_size))
        c = jnp.zeros((batch_size, self.hidden_size))
        h_list = []
        for t in range(seq_len):
            (h, c), h_out = self.lstm_cell((h, c), x[:, t, :])
            h_list.append(h_out)
        h_stacked = jnp.stack(h_list, axis=1)
        return self.linear(h_stacked)
# cell 11
def train_step(model, optimizer, metrics, batch):
    inputs, targets = batch
    
    def loss_fn(model):
        logits = model(inputs)[:, -1, :] # Ambil output terakhir
        target_idx = jnp.argmax(targets, axis=1)
        loss = optax.softmax_cross_entropy_with_integer_labels(logits, target_idx).mean()
        return loss, logits

    (loss, logits), grads = nnx.value_and_grad(loss_fn, has_aux=True)(model)
    optimizer.update(model, grads)
    
    target_idx = jnp.argmax(targets, axis=1)
    metrics.update(values=loss, logits=logits, labels=target_idx)
    return loss

@nnx.jit
def eval_step(model, metrics, batch):
    inputs, targets = batch
    logits = model(inputs)[:, -1, :]
    target_idx = jnp.argmax(targets, axis=1)
    loss = optax.softmax_cross_entropy_with_integer_labels(logits, target_idx).mean()
    metrics.update(values=loss, logits=logits, labels=target_idx)
    return loss

def train_epoch(model, datagen, optimizer, metrics):
    model.train()
    total_loss = 0.
    for idx in range(len(datagen)):
        x, y = datagen[idx]
        loss = train_step(model, optimizer, metrics, (jnp.array(x), jnp.array(y)))
        total_loss += loss.item()
    return total_loss / len(datagen)

def evaluate(model, datagen, metrics):
    model.eval()
    total_loss = 0.
    for idx in range(len(datagen)):
        x, y = datagen[idx]
        loss = eval_step(model, metrics, (jnp.array(x), jnp.array(y)))
        total_loss += loss.item()
    return total_loss / len(datagen)
# cell 13
input_size = train_data_gen.n_symbols
hidden_size = 64
output_size = train_data_gen.n_classes    

rngs = nnx.Rngs(42)
if model_type == "rnn":
    model = SimpleRNN(input_size, hidden_size, output_size, rngs=rngs)
else:
    model = SimpleLSTM(input_size, hidden_size, output_size, rngs=rngs)

optimizer = nnx.Optimizer(model, optax.adam(1e-4), wrt=nnx.Param)
metrics = nnx.MultiMetric(
    loss=nnx.metrics.Average(),
    accuracy=nnx.metrics.Accuracy(),
)

history = {"train_loss": [], "train_acc": [], "test_loss": [], "test_acc": []}
# cell 15
print(f"Memulai pelatihan {model_type} pada tingkat kesulitan {difficulty}...")

for ep in tqdm(range(max_epochs), unit="epoch"):
    metrics.reset()
    train_loss = train_epoch(model, train_data_gen, optimizer, metrics)
    train_acc = metrics.compute()["accuracy"]
    
    metrics.reset()
    test_loss = evaluate(model, test_data_gen, metrics)
    test_acc = metrics.compute()["accuracy"]
    
    history["train_loss"].append(float(train_loss))
    history["train_acc"].append(float(train_acc))
    history["test_loss"].append(float(test_loss))
    history["test_acc"].append(float(test_acc))

    # Simpan checkpoint setiap epoch
    if (ep + 1) % 10 == 0:
        save_checkpoint(model, ep + 1, filedir=checkpoint_dir)
        print(f"Epoch {ep+1}: Loss={train_loss:.4f}, Acc={train_acc:.4f}, Test Acc={test_acc:.4f}")


_report({"jit(eval_step)"}, max_epochs * len(test_data_gen))  # scaffolding
