"""The service-time term: a concave piecewise-linear charging-time share (M/D/1 queue)."""
from __future__ import annotations

import numpy as np


def _waiting_lines() -> tuple[np.ndarray, np.ndarray]:
    """Lines (a_k, b_k) whose minimum is φ̂(u) = min_k (a_k + b_k·u).

    φ(u) = u·h(u), h(u) = 1 / (1 + u / (2(1 − u))) = τ / (τ + W_q): the share of a driver's
    time at the station spent charging, M/D/1 waiting W_q = uτ/(2(1−u)) (PCRL). φ is concave
    on [0, 1]; φ̂ interpolates it at u = 0, 0.05, …, 1 and continues for u > 1 with slope −2
    (= φ'(1)), so φ̂ stays concave: this is what makes the MILP exact."""
    u = np.linspace(0.0, 1.0, 21)
    phi = 2.0 * u * (1.0 - u) / (2.0 - u)
    b = np.diff(phi) / np.diff(u)
    a = phi[:-1] - b * u[:-1]
    return np.append(a, 2.0), np.append(b, -2.0)


WAIT_A, WAIT_B = _waiting_lines()


def service_value(load: np.ndarray, cap: np.ndarray) -> np.ndarray:
    """cap·φ̂(load / cap) = min_k (a_k·cap + b_k·load): served demand × charging-time share."""
    return (np.asarray(cap)[..., None] * WAIT_A + np.asarray(load)[..., None] * WAIT_B).min(axis=-1)

__all__ = ["WAIT_A", "WAIT_B", "service_value"]
