// QuarryModel: entities, attributes, relationships and the model readers.
import QuarrySyntax
