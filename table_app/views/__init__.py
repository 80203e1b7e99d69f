"""The one view of the table per committed change (issue 40): :class:`~table_app.views.table_views.TableViews`
follows the service and builds a :class:`~table_app.present.view_context.ViewContext` once per change,
from the one claim deadline and the one session clock; MQTT, the web pages and the touchscreen read it."""
