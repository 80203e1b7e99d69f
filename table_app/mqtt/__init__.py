"""MQTT for the table (docs/design.md, MQTT): the publisher/command bridge, topics, messages,
Home Assistant discovery and the broker set-up. paho-mqtt is imported only by
:mod:`table_app.mqtt.bridge` and the seat display, never by the rest of the service."""
