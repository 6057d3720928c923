"""Kindly's core: what every app may use (error bodies and domain errors, validators, limits,
the address rule's staff share, notices and their audiences, domain events, the list cache,
realtime pushes, logging, throttling, CSP). It imports no app; the site glue is `marketplace`."""
