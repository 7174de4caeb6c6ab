"""The rule set on the wire: its pydantic model and JSON Schema, built from the engine's own
declarations (:data:`baofen.ruleset.FIELDS`), and :data:`Rules`, the type a message's field
takes to hold an engine :class:`~baofen.ruleset.RuleSet`.

A client sends a JSON object of §13 fields; :data:`Rules` validates it by the model (each bad
field named at its place in the message), then makes the engine's value of it, which checks
what holds between fields (the bid grid). What was not sent takes its game's default.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, GetCoreSchemaHandler, create_model
from pydantic_core import core_schema

from ..ruleset import FIELDS, RuleSet


def _model() -> type[BaseModel]:
    fields: dict[str, Any] = {}
    for spec in FIELDS.values():
        annotation = spec.annotation
        if spec.setting is not None:
            annotation = Annotated[annotation, spec.setting]
        examples = None if spec.example is None else [spec.example]
        fields[spec.name] = (annotation, Field(
            spec.default, ge=spec.ge, le=spec.le, description=spec.description, examples=examples,
        ))
    model: type[BaseModel] = create_model(
        "RuleSet", __config__=ConfigDict(frozen=True, extra="forbid", strict=True),
        __doc__=RuleSet.__doc__, __module__=__name__, **fields,
    )
    return model


RuleSetModel = _model()
"""The rule set's JSON form as a pydantic model named ``RuleSet`` (its JSON Schema is the
protocol's ``RuleSet``: every field's type, default, limits, example and ``x-setting``)."""


def _rule_set(value: Any, validate: core_schema.ValidatorFunctionWrapHandler) -> RuleSet:
    if isinstance(value, RuleSet):  # a message built in Python
        return value
    if isinstance(value, dict) and isinstance(value.get("bid_values"), list):
        value = {**value, "bid_values": tuple(value["bid_values"])}  # JSON data in Python
    model = validate(value)
    return RuleSet.create(**model.model_dump(exclude_unset=True))


class _RulesSchema:
    """A field of this type holds a :class:`RuleSet`: validated from JSON by
    :data:`RuleSetModel`, written as :meth:`RuleSet.to_dict`."""

    @classmethod
    def __get_pydantic_core_schema__(
        cls, _source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_wrap_validator_function(
            _rule_set, handler.generate_schema(RuleSetModel),
            serialization=core_schema.plain_serializer_function_ser_schema(RuleSet.to_dict),
        )


Rules = Annotated[RuleSet, _RulesSchema]
"""A message field holding a rule set (``rules: Rules``)."""
