# source: https://github.com/AI-Hypercomputer/JetStream/commit/92ba8bc4db8ecfd26847a95b3d893f36010de137
# expect: changing-static at line 115
# runtime: COMPILES 4 CALLS 4
# why: Every ActiveRequest gets request_id=uuid.uuid4() and the generate thread passes it to the engine's insert, which is jitted with static_argnames=("request_id",), so each new request is a new static value and insert compiles once per request.
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

import dataclasses
import functools
import time
import uuid
from typing import Any, Optional

import jax
import jax.numpy as jnp
import numpy as np


@dataclasses.dataclass
class ActiveRequestMetadata:
  """Inference request metadata."""

  start_time: float = 0.0

  prefill_enqueue_time: float = 0.0
  prefill_dequeue_time: float = 0.0

  transfer_enqueue_time: float = 0.0
  transfer_dequeue_time: float = 0.0

  generate_enqueue_time: float = 0.0
  generate_dequeue_time: float = 0.0

  complete_time: float = 0.0


@dataclasses.dataclass
class ActiveRequest:
  """Current state of the driver."""

  #################### Information relevant for generation #####################
  # The unique id for the activeRequest, used for tracking the request's status
  request_id: uuid.UUID
  max_tokens: int
  # We keep prefill and decode information together in the same object so that
  # there is less indirection about where this return channel is.
  # The return channel returns a list of strings, one per sample for that query.
  return_channel: Any  # scaffolding: async_multifuture.AsyncMultifuture[list[ReturnSample]]
  # [num_samples,] which corresponds to whether each sample is complete for the
  # requests.
  complete: Optional[np.ndarray] = None
  prefill_result: Any = None
  # The number of responses for one request.
  num_samples: int = 1
  #################### Information relevant for prefill ########################
  prefill_content: Optional[str | list[int]] = None
  ################## Information relevant for detokenization ###################
  # Which generate step this was added at.
  generate_timestep_added: Optional[int] = None
  is_client_side_tokenization: Optional[bool] = False
  ################## Information relevant for metrics ###################
  metadata: ActiveRequestMetadata = dataclasses.field(
      default_factory=ActiveRequestMetadata
  )


class MaxEngine:  # maxtext MaxText/maxengine.py (the engine JetStream drives); insert's decorator and signature as in the repo
  samples_per_slot = 1

  @functools.partial(
      jax.jit,
      static_argnums=(0,),
      donate_argnums=(
          1,
          2,
      ),
      static_argnames=("request_id",),
  )
  def insert(
      self,
      prefix,
      decode_state,
      slot: int,
      request_id: Optional[uuid.UUID] = None,  # pylint: disable=unused-argument
  ):
    """Insert a single computed prefill cache into KV cache."""
    # scaffolding: the repo copies every prefill cache entry into the slot; one cache array stands in
    cache = jax.lax.dynamic_update_index_in_dim(decode_state["cache"], prefix["cache"], slot, 0)
    return {"cache": cache, "tokens": decode_state["tokens"].at[slot].set(prefix["token"])}


def make_active_request(request):  # LLMOrchestrator.Decode: wrap the request as an ActiveRequest
  prefill_content, is_client_side_tokenization = request["text"], False  # scaffolding: self._get_prefill_content(request)
  return_channel = None  # scaffolding: async_multifuture.AsyncMultifuture()
  # Wrap request as an ActiveRequest.
  active_request = ActiveRequest(
      request_id=uuid.uuid4(),
      max_tokens=request["max_tokens"],
      prefill_content=prefill_content,
      is_client_side_tokenization=is_client_side_tokenization,
      return_channel=return_channel,
      metadata=ActiveRequestMetadata(
          start_time=time.perf_counter(),
          prefill_enqueue_time=time.perf_counter(),
      ),
      num_samples=1,
  )
  return active_request


generate_engine = MaxEngine()  # scaffolding
decode_state = {"cache": jnp.zeros((4, 8)), "tokens": jnp.zeros((4,), jnp.int32)}  # scaffolding: 4 decode slots
requests = [{"text": f"prompt {i}", "max_tokens": 16} for i in range(4)]  # scaffolding: four incoming requests
for slot, request in enumerate(requests):  # scaffolding: the generate thread's insert loop, one free slot per request
  new_request = make_active_request(request)
  new_request.prefill_result = {"cache": jnp.full((8,), float(slot)), "token": jnp.int32(slot)}  # scaffolding: prefill output
  decode_state = generate_engine.insert(
      new_request.prefill_result,
      decode_state,
      slot=slot,
      request_id=new_request.request_id,
  )
  del new_request.prefill_result
_report({"jit(insert)"}, len(requests))  # scaffolding
