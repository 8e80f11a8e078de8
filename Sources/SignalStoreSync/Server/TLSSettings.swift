#if SIGNALSTORE_SYNC
import Foundation
import NIOSSL
import PostgresNIO

/// The driver's TLS settings for a ``PostgresURL``: `libpq`'s `sslmode` and `sslrootcert`
/// turned into a certificate check and trust roots.
enum TLSSettings {
    static func make(for url: PostgresURL) throws(SyncError) -> PostgresConnection.Configuration.TLS {
        if url.tls == .disable { return .disable }
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = verification(for: url)
        if let path = url.rootCertificatePath {
            configuration.trustRoots = .certificates(try certificates(at: path))
        }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw SyncError(.refused, "cannot set up TLS for \(url.redacted): \(url.redacting(String(describing: error))); check the system's trust roots, or give the server's CA as sslrootcert=PATH")
        }
        return url.tls == .prefer ? .prefer(context) : .require(context)
    }

    /// What is checked of the server's certificate. As in `libpq`, a root certificate file
    /// makes `prefer` and `require` check who signed it.
    private static func verification(for url: PostgresURL) -> CertificateVerification {
        switch url.tls {
        case .disable: .none
        case .prefer, .require: url.rootCertificatePath == nil ? .none : .noHostnameVerification
        case .verifyCA: .noHostnameVerification
        case .verifyFull: .fullVerification
        }
    }

    private static func certificates(at path: String) throws(SyncError) -> [NIOSSLCertificate] {
        let fix = "give the path of the PEM file of the CA that signed the server's certificate"
        guard FileManager.default.isReadableFile(atPath: path) else {
            let problem = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist"
            throw SyncError(.invalidURL, "sslrootcert '\(path)' \(problem); \(fix)")
        }
        guard let certificates = try? NIOSSLCertificate.fromPEMFile(path), !certificates.isEmpty else {
            throw SyncError(.invalidURL, "sslrootcert '\(path)' holds no PEM certificate; \(fix)")
        }
        return certificates
    }
}
#endif
