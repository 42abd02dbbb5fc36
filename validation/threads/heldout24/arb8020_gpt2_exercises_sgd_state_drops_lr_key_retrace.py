# source: https://github.com/arb8020/jax-gpt2-exercises/blob/7c1374ea81bb7847dd0e1631aef6b4f9d1d280b2/jax_gpt2_sols.ipynb
# expect: shape-churn at line 375
# runtime: COMPILES 2 CALLS 8
# why: init_sgd_state returns {'step': 0, 'lr': lr} but sgd_update returns only {'step': ...}, so after the first call the opt_state argument of the jitted train_step has a different pytree structure (one leaf fewer) and train_step is traced and compiled a second time.
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


# cell 1
import time
from typing import List, Dict, Tuple, Callable, NamedTuple, Any, Optional
from functools import partial
# cell 5
# TODO: this motivation for jax could be better

# in order to implement this ourselves
# we will be using JAX
# JAX is a library that is based on doing high performance math with arrays
# arrays are really nice because we can represent very high dimensional data with them
# if you've used numpy, a lot of the syntax will be very familiar
# if a vector is a 1 dimensional object
# a matrix is 2 dimensions
# and everything beyond is a tensor
# as an example, you can imagine a 3d tensor as a bunch of matrices stacked side by side into a cuboid type situation
# (computerphile on tensors: https://www.youtube.com/watch?v=DfK83xEtJ_k)

# jax is an autodifferentiating library
# this means that it automatically can keep track of computations that happen to a given input
# and automatically calculate partial derivatives
# this is very useful for machine learning research
# as backpropagation is how neural networks fit their parameters
# 3blue1brown on backprop (https://www.youtube.com/watch?v=Ilg3gGewQ5U)

# backpropagation is frequently parallelized on 'batches' of input at a time
# jax is nice in that it provides automatic function vectorization
# it makes doing things like [f(i) for i in x] very efficient

# in machine learning research
# we also frequently have functions where the transformations don't really change
# and we might want to compile those functions, rather than re-interpreting it each time
# while python is very convenient for its extensive tooling and ease of writing
# it doesnt natively have a way to compile and efficiently execute chunks of code
# so jax introduces Just In Time compiling
# making it easy to write performant code

# ultimately, jax is just about expressing and composing transformations, or functions
# https://www.youtube.com/watch?v=PAZTIAfaNr8
# jit, vmap, and grad all work very easily with each other due to jax's functional style
# and it makes the compilers life a lot easier too
# code is also more easy to reproduce
# as jax's functional style avoids implicit global states

# let's import it now

import jax
import jax.numpy as jnp
# cell 9
# TODO: could break this up into initial tokenizer -> with special chars

# for our initial tokenizer, we can use python's ord() and chr()
# to turn chars into integers, and vice versa
# the ascii printable characters are from 32-126
# so we'll define a 'char_to_idx' and an 'idx_to_char' function
# this will make our lives easier by mapping into the range 0-94
# as a default, we can return 0 if ord(x) is outside of the printable character idxs
# and return ('\n') if we get an index we don't know about

def char_to_idx(char: int) -> int:
    if 32 <= char <= 126:
        return char - 32
    else:
        return 0

def idx_to_char(index: int) -> int:
    if 0 <= index <= 94:
        return index + 32
    else:
        return ord('\n')

print(char_to_idx(ord('a')))
print(chr(idx_to_char(char_to_idx(ord('a')))))
# cell 10
# now, we make the tokenizer
# we'll create a namedtuple object, to easily organize our tokenizer

class Tokenizer(NamedTuple):
    encode: Callable
    decode: Callable

def encode(text: str) -> jax.Array:
    return jnp.array([char_to_idx(ord(c)) for c in text])

def decode(ids: jax.Array) -> str:
    return ''.join([chr(idx_to_char(int(id))) for id in ids])

tokenizer = Tokenizer(encode=encode, decode=decode)
# Test the functions
print('hello')
print(tokenizer.encode('hello'))
print(tokenizer.decode(tokenizer.encode('hello')))

print('1.\n2.')
print(tokenizer.encode('1.\n2.'))
print(tokenizer.decode(tokenizer.encode('1.\n2.')))

# notice that our tokenizer does not handle the \n token!
# cell 13
# first we'll create a struct to hold configuration parameters
# an initialization function to initialize parameters
# and a forward pass of the model, taking in some input and creating outpu

# struct
class ModelConfig(NamedTuple):
    vocab_size: int
# cell 14
# to initialize parameters
# jax wants us to pass in a jax.random.PRNGKey()
# jax uses this sort of like the way a seed works
# but rather than defining a global seed, we get to explicitly pass it to our random functions
# https://jax.readthedocs.io/en/latest/random-numbers.html#explicit-random-state
# we'll store our parameters in a dictionary, and call the matrix 'token_table'
# it should have shape (vocab_size, vocab_size), to have a mapping from each token to each other token in the vocab

def initialize_bigram_params(model_config: ModelConfig, key=jax.random.PRNGKey(0)) -> Dict:
    vocab_size = model_config.vocab_size
    weights = jax.random.normal(key, (vocab_size, vocab_size))
    model_params = {'token_table': weights}
    return model_params

bigram_config = ModelConfig(vocab_size = 95)
bigram_params = initialize_bigram_params(bigram_config)
bigram_params['token_table'].shape
# cell 15
# and now we write the forward pass
# as discussed above, we'll use the token table
# to figure out what our prediction for the next token should be
# we'll be taking in a vector of shape (batch_size, sequence_length,)
# take the last token as our key
# keying into the token_table will return a vector of size (batch_size, vocab_size)
# and finally, we should return a vector of size (batch_size, 1, vocab_size)

def bigram_model(model_params: Dict, model_config: ModelConfig, tokens: jax.Array): # (seq_len,) -> (1,vocab_size)
    token_table = model_params['token_table']
    last_token_id = tokens[-1]
    logits = token_table[last_token_id]
    reshaped_logits = logits.reshape((1, model_config.vocab_size))
    return reshaped_logits

logits = bigram_model(bigram_params, bigram_config, tokenizer.encode('hello'))
logits.shape # you can use this to debug!
# cell 20
# to set up our generation
# we'll need to pass in our model parameters, config, forward pass
# to make selecting the forward pass easier, we'll set up a dictionary MODEL_DICT

MODEL_DICT = {
    'bigram_model': bigram_model,
}

# our generate function should use
# model params/config/fwd pass
# prompt tokens
# max tokens to generate
# temperature (as previously discussed)
# and a jax key
# we'll be using the jax.random.split as discussed in # https://jax.readthedocs.io/en/latest/random-numbers.html#explicit-random-state

# while we haven't finished generating tokens
# get the logits for the current sequence
# get the last token's logits
# scale the logits with temperature
# sample with jax.random.categorical to get the next token (we can use shape (1,), not parallelizing generations)
# add to the generated tokens to return (you can use jnp.concatenate)
# add to the tokens we use for the prompt
# repeat

def generate(params: Dict, model_config: ModelConfig, model_name: str, tokens: jax.Array, max_new: int, temp=1, key=jax.random.PRNGKey(0)):
    gen_tokens = jnp.array([], dtype=jnp.int32)
    cur_pos = 0

    while cur_pos < max_new:
        key, subkey = jax.random.split(key, 2)
        logits = MODEL_DICT[model_name](params, model_config, tokens)
        last_token_logit = logits[-1:]
        scaled_logit = last_token_logit / temp
        next_token = jax.random.categorical(subkey, scaled_logit, shape=(1,))
        gen_tokens = jnp.concatenate((gen_tokens, next_token))
        tokens = jnp.concatenate((tokens, next_token))
        cur_pos += 1

    return gen_tokens

prompt = 'hello?'

model_name = 'bigram_model'
tokenized_prompt = jnp.array(tokenizer.encode(prompt), dtype=jnp.int32)
generated_tokens = generate(bigram_params, bigram_config, model_name, tokens=tokenized_prompt, max_new=10, temp=0.8, key=jax.random.PRNGKey(0))
generated_text = tokenizer.decode(generated_tokens)
print(prompt + generated_text)
# cell 22
# turns out, this model is pretty weak
# before we go about improving it, we need to measure how well/poorly its doing
# our model outputs logits, which get softmaxed into some distribution q
# for each training datapoint, we want to know how surprising the real distribution is
# for example, if our guess q has 0.9 for the token !  and 0.002 for ?, but the actual label is ?
# then we were pretty wrong
# turns out we can basically just use the entropy equation from before
# but rather than using
# E = -sum(p(x) * log(p(x)))
# we just replace one of the p(x) distributions with our model output distribution q(x)
# C = -sum(p(x) * log(q(x)))
# this is known as 'cross-entropy'
# note that we choose to put the log transform on our q distribution bc log(0) is not stable

# cross_entropy_loss should take in logits, of shape (batch_size, vocab_size)
# the targets, should be (batch_size,)

# we know that we have vocab_size classes
# so we reshape the targets using one hot encoding, into (batch_size, vocab size) as well

# one hot encoding would take some id of 3, for a vocab size 5 into [0,0,0,1,0]

# after that, take the log softmax because we log transformed p(x) above
# and then the loss is just the equation we derived above: the negated sum of the expected surprise

# we use axis=-1 because we want to sum over the vocab_size in the shape

# finally, we take the mean of this value across the batch size
# to output our final loss value (as a scalar)

def cross_entropy_loss(logits: jnp.ndarray, targets: jnp.ndarray) -> jnp.ndarray:

    num_classes = logits.shape[-1]
    onehot_targets = jax.nn.one_hot(targets, num_classes)
    log_probs = jax.nn.log_softmax(logits)
    loss = -jnp.sum(onehot_targets * log_probs, axis=-1)

    mean_loss = jnp.mean(loss)

    return mean_loss

text = 'hello worl'
tokenized_text = tokenizer.encode(text)
target = tokenizer.encode('d')

logits = bigram_model(bigram_params, bigram_config, tokenized_text)
cross_entropy_loss(logits, target)
# cell 24
# now that we can compute how bad our model is
# we should try to update its parameters

# suppose our model had 2 parameters, x and y
# and the loss function was some z axis
# we could plot the surface of the loss as a function of x and y
# and try to find the minimum value of it

# unfortunately, we won't know what the surface looks like at all points
# we can only compute it for some pair (x,y)
# so how can we find the minimum value?

# one way to motivate this is to imagine a blind man on the loss surface
# trying to get to the bottom
# at each point on the loss surface
# the blind man can feel out how steep the ground he stands on is
# and follow the slope

# if we take the gradient of the loss function with respect to our parameters
# we can basically do the same thing with our model
# for each of our parameters
# we update the parameter by taking a step 'downhill'
# typically, we take a step in the direction by multiplying the gradient by some 'learning rate'

parameter = 2
grad = 0.2
learning_rate = 0.01
new_parameter = parameter - learning_rate * grad
new_parameter
# cell 25
# as previously mentioned, jax is an autodiff library
# so we can automatically calculate the gradient with respect to some loss function
# basically jax applies a tracer object to all of its arguments
# the tracer records all the operations that happen to it
# and jax creates a Jaxpr out of it
# as an example, lets look at gelu, the activation function used in GPT-2
from jax import grad

def gelu(x):
    return 0.5 * x * (1 + jnp.tanh(jnp.sqrt(2 / jnp.pi) * (x + 0.044715 * jnp.power(x, 3))))

jax.make_jaxpr(gelu)(3.0)
# cell 26
# when computing the gradient
# jax traverses this intermediate representation to calculate the derivative

slope = 2.0
intercept = -0.5

x = 1.5

pred = slope * x + intercept

true = 4.0

mse = lambda y_hat, y: (y_hat - y)**2

print(jax.make_jaxpr(mse)(pred,true)) # c = a - b, d = c**2

value, grad = jax.value_and_grad(mse)(pred, true) # value and grad gives us both the value and gradient
value, grad
# cell 27
# let's see what this looks like for a training step here

text = 'hello worl'
tokenized_text = tokenizer.encode(text)
target = tokenizer.encode('d')

def model_loss(model_params, model_config, model_name, tokens, target):
    logits = MODEL_DICT[model_name](model_params, model_config, tokens)
    loss = cross_entropy_loss(logits, target)
    return loss

# use partial to set up the loss function, without passing in params yet
partial_loss_fn = partial(model_loss, model_config=bigram_config, model_name='bigram_model', tokens=tokenized_text, target=target)

# make jaxpr
jaxpr = jax.make_jaxpr(jax.value_and_grad(partial_loss_fn))(bigram_params)
print(jaxpr)

loss, grads = jax.value_and_grad(partial_loss_fn)(bigram_params)

print(f'loss: {loss}')
print(f'grad: {grad}')

lr = 1e-4
new_bigram_params = bigram_params['token_table'] - grad * lr
# cell 30
# use jax.tree.map to implement the update step of stochastic gradient descent
# assume that we already have the gradients

class OptConfig(NamedTuple):
    lr: int
    opt_init: Callable
    opt_update: Callable

# we'll keep track of our optimizer's state using a dictionary, similar to the model params dictionary

class OptConfig(NamedTuple):
    lr: int
    opt_init: Callable
    opt_update: Callable

def init_sgd_state(model_params: Dict, opt_config: OptConfig) -> Dict:
    state = {'step': 0, 'lr': opt_config.lr}
    return state

def sgd_update(model_params: Dict, grads: Dict, opt_state: Dict, opt_config: OptConfig) -> Tuple[Dict, Dict]:
    new_opt_state = {
        'step': opt_state['step'] + 1,
    }
    new_params = jax.tree.map(lambda p, g: p - opt_config.lr * g, model_params, grads)  # scaffolding: was jax.tree_map (removed in current jax), same call
    return new_params, new_opt_state
# cell 31
# now we can write a training step

sgd_config = OptConfig(lr=1e-2, opt_init=init_sgd_state, opt_update=sgd_update)
opt_state = sgd_config.opt_init(bigram_params, sgd_config)

text = 'hello worl'
tokenized_text = tokenizer.encode(text)
target = tokenizer.encode('d')

loss, grads = jax.value_and_grad(model_loss)(bigram_params, bigram_config, 'bigram_model', tokenized_text, target)

new_params, new_opt_state = sgd_update(bigram_params, grads, opt_state, sgd_config)
new_params
# cell 36
train_text = (  # scaffolding: a few lines instead of dataset["train"]["text"][0] from tiny_shakespeare (cells 34-36)
    "First Citizen:\nBefore we proceed any further, hear me speak.\n\n"  # scaffolding
    "All:\nSpeak, speak.\n\nFirst Citizen:\nYou are all resolved rather to die than to famish?\n"  # scaffolding
)  # scaffolding
# cell 49
# with jit and vmap, we are now ready to handle the tiny shakespeare dataset efficiently
# as you saw earlier, we should avoid jit compiling functions that don't take in jax arrays
# to turn text into a jnp array that will play well with jax
# we can just define a preprocess function
# make sure to explicitly pass in dtype so that we get integer values for each index

def preprocess_text(text: str):
    return jnp.array([ord(c) for c in text], dtype=jnp.int32)
# cell 50
# now we can start by jit compiling the char_to_idx and idx_to_char functions
# this is pretty much as simple as adding the jax.jit decorator

@jax.jit
def _char_to_idx(char: jax.Array):
    return jnp.where((32 <= char) & (char <= 126), char - 32, 0)

@jax.jit
def _idx_to_char(index: jax.Array):
    return jnp.where((0 <= index) & (index <= 94), index + 32, ord(' '))
# cell 51
# now, we can use vmap to wrap those idx/char conversion functions
# we should jit compile these functions as well

@jax.jit
def _tokenizer_encode_jax(char_array: jax.Array):
    return jax.vmap(_char_to_idx)(char_array)

@jax.jit
def _tokenizer_decode_jax(ids: jax.Array):
    return jax.vmap(_idx_to_char)(ids)
# cell 52
# now, we can write our final encode/decode functions

def jit_encode(char_array):
    return _tokenizer_encode_jax(char_array)

def jit_decode(ids):
    char_array = _tokenizer_decode_jax(ids)
    return ''.join([chr(int(c)) for c in char_array])
# cell 53
jit_tokenizer = Tokenizer(encode=jit_encode, decode=jit_decode)
# cell 54
train_array = preprocess_text(train_text)
train_tokens = jit_tokenizer.encode(train_array)
train_text[:20], train_array[:20], train_tokens[:20], jit_tokenizer.decode(train_tokens[:20])
# cell 57
# another optimization to make sure we can process this dataset in reasonable time
# is using batches of training data at a time
# we'll grab some batch_size amount of sequences at once
# and process them in parallel with jax's vmap
# as a reminder, vmap makes it fast/easy to run
# [f(i) for i in x]
# across some batch dimension (like batch_size!)

# we'll create a fake batch here to illustrate the concept

tokens_1 = jit_tokenizer.encode(preprocess_text('hello'))  # First sequence
tokens_2 = jit_tokenizer.encode(preprocess_text('world'))  # Second sequence
tokens_3 = jit_tokenizer.encode(preprocess_text('test!'))   # Third sequence

# Stack the sequences into a single batch with jnp.stack
tokens_batch = jnp.stack([tokens_1, tokens_2, tokens_3])
print(tokens_batch.shape)

# we'll write a batch forward for our model
# use jax.vmap and lambda x: to forward the specified model over the input batch

def batch_forward(params: Dict, model_config: Dict, model_name: str, input_batch: jnp.ndarray) -> jnp.ndarray:
    return jax.vmap(lambda x: MODEL_DICT[model_name](params, model_config, x))(input_batch)

logits = batch_forward(bigram_params, bigram_config, 'bigram_model', tokens_batch)
logits.shape
# cell 58
# now we can evaluate our loss over these batches
# generate a batch_size number of integer start indices
# use those and jax.lax.dynamic_slice to get sequences
# return the input/output batches
# remember that [1, 2, 3, 4, 5]
# would have input batch [1, 2, 3, 4]
# and target batch [2, 3, 4, 5]

def create_random_batches(tokens: jax.Array, batch_size: int, seq_len: int, key):
    max_start_idx = tokens.shape[0] - seq_len - 1
    start_indices = jax.random.randint(
        key,
        shape=(batch_size,),
        minval=0,
        maxval=max_start_idx
    )

    def get_sequence(start_idx):
        return jax.lax.dynamic_slice(tokens, (start_idx,), (seq_len + 1,))

    sequences = jax.vmap(get_sequence)(start_indices)

    input_batches, target_batches = sequences[:, :-1], sequences[:, 1:]

    return input_batches, target_batches

input_batches, target_batches = create_random_batches(tokens=train_tokens, batch_size=4, seq_len=8, key=jax.random.PRNGKey(0))
logit_batch = batch_forward(bigram_params, bigram_config, 'bigram_model', input_batches)
cross_entropy_loss(logit_batch, target_batches)
# cell 59
# finally, we can also parallelize our model over an input
# here we'll use jax vmap
# as a reminder, it works similarly to [f(i) for i in x] over some dimension

# as a start
# rather than predicting separately for each position in the seq_len
# we can do our predictions in parallel across the seq_len dimension
# so instead of outputting (batch_size, 1, vocab_size)
# we output (batch_size, seq_len, vocab_size)
# we'll just have to make sure to select the last logit for generation

def parallel_bigram(model_params: Dict, model_config: Dict, tokens: jax.Array) -> jax.Array:
    logits = jax.vmap(lambda x: model_params['token_table'][x])(tokens)
    return logits

MODEL_DICT = {
    'bigram_model': bigram_model,
    'parallel_bigram': parallel_bigram
}

logits = parallel_bigram(bigram_params, bigram_config, input_batches)
logits.shape
# cell 61
# we now have everything we need to train our model!
# typically in training deep learning models
# we work through our data in epochs
# traditionally, this is a full pass through of our dataset
# but it can also just mean a fixed amount of batches
# in each batch, we compute the loss over the batch, and do an update step
# finally, we return the trained parameters

# let's see what that looks like for our language model
# we'll start by creating the TrainConfig struct
# we'll define the number of epochs
# the number of batches per epoch
# the amount of sequences in each batch
# the sequence length of each batch
# and a seed for our key

class TrainConfig(NamedTuple):
    num_epochs: int
    batches_per_epoch: int
    batch_size: int
    batch_seq_len: int
    seed: int
# cell 62
# now we can write one training step
# we'll use jax.jit to compile this so training goes faster
# use the batch_forward we defined above to efficiently compute logits for an input batch
# define a batch_loss_function to compute the loss against a target batch (nested inside, so it also gets compiled)
# use create random batches from before as well

# our training step should return the new parameters, optimizer state, and the loss for the step

@partial(jax.jit, static_argnames=['model_config', 'model_name', 'opt_config', 'train_config', ])
def train_step(params: Dict, model_config: ModelConfig, model_name: str, tokens: jax.Array, opt_state: Dict, opt_config: OptConfig, train_config: TrainConfig, key):
    def batch_loss_fn(params, input_batch, target_batch):
        logits = batch_forward(params, model_config, model_name, input_batch)
        batch_loss = cross_entropy_loss(logits, target_batch)
        return batch_loss

    batch_size = train_config.batch_size
    seq_len = train_config.batch_seq_len
    input_batch, target_batch = create_random_batches(tokens, batch_size, seq_len, key)
    loss, grads = jax.value_and_grad(batch_loss_fn)(params, input_batch, target_batch)
    new_params, new_opt_state = opt_config.opt_update(params, grads, opt_state, opt_config)
    return new_params, new_opt_state, loss
# cell 64
def train(params: Dict, model_config: ModelConfig, model_name: str, tokens: jnp.ndarray, opt_config: OptConfig, train_config: TrainConfig, key=jax.random.PRNGKey(0)):
    if model_name not in MODEL_DICT:
        raise ValueError(f"Unknown model: {model_name}")

    device = jax.devices()[0]
    print(f"Using device: {device}")

    key = jax.random.PRNGKey(train_config.seed)
    init_opt_state = opt_config.opt_init(params, opt_config)

    # Move data to device
    params = jax.device_put(params, device)
    tokens = jax.device_put(tokens, device)
    opt_state = jax.device_put(init_opt_state, device)

    print('training ...')
    for epoch in range(train_config.num_epochs):
        epoch_loss = 0.0
        for _ in range(train_config.batches_per_epoch):
            key, subkey = jax.random.split(key, 2)
            new_params, opt_state, loss = train_step(
                params, model_config, model_name, tokens, opt_state, opt_config, train_config, key=subkey
            )
            epoch_loss += loss

            params = new_params
        avg_loss = epoch_loss / train_config.batches_per_epoch
        print(f"Epoch {epoch + 1}/{train_config.num_epochs}, Average Loss: {avg_loss}")

    return params

train_config = TrainConfig(num_epochs=2, batches_per_epoch=4, batch_size=8, batch_seq_len=16, seed=0)  # scaffolding: 2 x 4 steps instead of 200 x 128
opt_config = OptConfig(lr=1e-2, opt_init=init_sgd_state, opt_update=sgd_update)

trained_bigram_params = train(bigram_params, bigram_config, 'bigram_model', train_tokens, sgd_config, train_config)
_report({"jit(train_step)"}, 8)  # scaffolding: 2 epochs x 4 batches
