"""The `exact` engine's posterior over hidden starts, one module per method (window programme,
frontier programme, split halves; dense and sparse tables; the row sampler), behind one
`Posterior` protocol, chosen by `choice.posterior_of`. The modules load numpy and are imported
by name, so nothing is re-exported here."""

__all__: list[str] = []
