// The store's and context's errors as QuarryError reports (QuarrySyntax's
// QuarryError.swift): each case has the code the shell prints for it, so a
// library user and a shell user see the same code. B codes where the request
// names something the model does not have or gives the wrong type, A006 for
// a request that cannot be carried out as asked, R002 for a store that cannot
// be opened as asked, R004 for what a store cannot do, R006 for the model's
// rules refusing a write, R007 for a uniqueness constraint.
import Foundation

extension StoreError: QuarryError {
    public var code: String {
        switch self {
        case .unknownEntity: return DiagnosticCode.unknownEntity.rawValue
        case .unknownKey: return DiagnosticCode.unknownKeyInModel.rawValue
        case .typeMismatch: return DiagnosticCode.bindTypeMismatch.rawValue
        case .transientAttribute: return DiagnosticCode.transientInStore.rawValue
        case .abstractEntity, .upsertRefused: return DiagnosticCode.invalidRequest.rawValue
        case .missingValue, .outOfRange, .deleteDenied: return "R006"
        case .schemaMismatch, .layoutMismatch, .foreignDatabase, .migrationNeeded: return "R002"
        case .readOnly: return "R004"
        }
    }

    public var report: ErrorReport { ErrorReport(code: code, message: description) }
}

extension ContextError: QuarryError {
    public var report: ErrorReport {
        let code: String
        switch self {
        case .unknownEntity: code = DiagnosticCode.unknownEntity.rawValue
        case .unknownKey, .invalidPrefetchKeyPath: code = DiagnosticCode.unknownKeyInModel.rawValue
        case .notAManagedObject, .toManyNeedsAddOrRemove, .wrongEntity: code = DiagnosticCode.bindTypeMismatch.rawValue
        case .abstractEntity, .objectNotInContext, .otherContext, .batchSizeRequired: code = DiagnosticCode.invalidRequest.rawValue
        case .fetchError: code = "R001"
        }
        return ErrorReport(code: code, message: description)
    }
}

extension ValidationHookError: QuarryError {
    public var report: ErrorReport { ErrorReport(code: "R006", message: description) }
}

extension ValidationError: QuarryError {
    public var report: ErrorReport { ErrorReport(code: "R006", message: description) }
}

extension FetchedResultsError: QuarryError {
    public var report: ErrorReport {
        switch self {
        case .indexPathOutOfRange: return ErrorReport(code: DiagnosticCode.indexOutOfRange.rawValue, message: description)
        default: return ErrorReport(code: DiagnosticCode.invalidRequest.rawValue, message: description)
        }
    }
}

extension MigrationError: QuarryError {
    public var report: ErrorReport {
        switch self {
        case .duplicates: return ErrorReport(code: "R007", message: description)
        case .failed: return ErrorReport(code: "R001", message: description)
        default: return ErrorReport(code: "R002", message: description)
        }
    }
}

extension StorePathError: QuarryError {
    public var report: ErrorReport { ErrorReport(code: "R002", message: description, file: path) }
}

extension ExportError: QuarryError {
    public var report: ErrorReport { ErrorReport(code: "R001", message: description) }
}

extension BatchInsertError: QuarryError {
    /// The code of what stopped the insert (a uniqueness constraint, a type), else R001.
    public var report: ErrorReport {
        ErrorReport(code: (underlying as? any QuarryError)?.report.code ?? "R001", message: description)
    }
}

extension DerivedAttributeError: QuarryError {
    /// A write naming a derived attribute: a request that cannot be carried out as asked.
    public var report: ErrorReport { ErrorReport(code: DiagnosticCode.invalidRequest.rawValue, message: description) }
}

extension OrderedRelationshipError: QuarryError {
    public var report: ErrorReport { ErrorReport(code: DiagnosticCode.invalidRequest.rawValue, message: description) }
}

extension DerivationLoweringError: QuarryError {
    /// A derivation SQL cannot keep current: the store refuses the request (R004, what a store cannot do).
    public var report: ErrorReport { ErrorReport(code: "R004", message: description) }
}
